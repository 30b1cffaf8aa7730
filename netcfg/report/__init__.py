"""`netcfg report PATH --base REF`: what a pull request changes, for the people who review it.

The intent is rendered twice, as it stands at the git revision REF (the base of the pull
request) and as it stands in the working tree, and the two renders are compared the way `netcfg
diff` compares a device with its rendered config: per device by section
(`DeployAdapter.sections`, netcfg/deploy/sections.py), with the changes that take links down
(`DeployAdapter.disruptive`) and what the lossless chain and BGP mean on either side (each
NOS's `expected` facts). Beside that: lint's findings with their waivers, the deadlock verdict,
and what `netcfg verify` said where its JSON is given. One Markdown file (a PR comment) and one
self-contained HTML file are written (docs/report.md).
"""
