"""`netcfg verify`: each switch's operational state against the plan its config renders from.

rules (the VFY ids), collect (state through NAPALM getters and the diff), checks (plan vs
state, one Check per planned thing), report (the lint formats for checks), run (the fleet
loop, `api.verify`), cli (the command).
"""
