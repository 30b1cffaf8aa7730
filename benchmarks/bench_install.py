"""Install size: the wheel into a fresh virtual environment, base and with extras.

For each install: the distributions pip installed (pip and setuptools of the new environment
not counted), the megabytes they add to site-packages, and pip's wall time without its cache
(so every dependency is downloaded, as on a fresh CI runner; network speed counts).

    python benchmarks/bench_install.py [EXTRA,EXTRA ...]    # default: base, deploy
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def listed(python: Path) -> set[str]:
    out = subprocess.run([str(python), "-m", "pip", "list", "--format", "freeze"],
                         capture_output=True, text=True, check=True).stdout
    return {line.split("==")[0].lower() for line in out.splitlines() if line}


def measure(wheel: Path, extras: str, work: Path) -> tuple[int, float, float]:
    env = work / (extras or "base")
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    python = env / "bin" / "python"
    site = next(env.glob("lib/python*/site-packages"))
    before, mb = listed(python), size_mb(site)
    spec = f"{wheel}[{extras}]" if extras else str(wheel)
    start = time.perf_counter()
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-cache-dir",
                    "--disable-pip-version-check", spec], check=True)
    seconds = time.perf_counter() - start
    return len(listed(python) - before), size_mb(site) - mb, seconds


def main() -> None:
    kinds = sys.argv[1:] or ["", "deploy"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                        str(work), str(ROOT)], check=True)
        wheel = next(work.glob("*.whl"))
        print("| install | packages | MB | seconds |")
        print("|---|---|---|---|")
        for extras in kinds:
            count, mb, seconds = measure(wheel, extras, work)
            name = f"netcfg-roce[{extras}]" if extras else "netcfg-roce"
            print(f"| `pip install {name}` | {count} | {mb:.0f} | {seconds:.0f} |")


if __name__ == "__main__":
    main()
