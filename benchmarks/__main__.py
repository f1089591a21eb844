"""`python -m benchmarks [--quick] [--only storage|bot|fair|admin|public|workers|panel|route|whatsapp]`.

Runs the storage benchmark, then `benchmarks.bot_bench`, `benchmarks.fairness_bench` and
`benchmarks.admin_bench`, `benchmarks.public_bench` and `benchmarks.workers_bench` (PostgreSQL;
skipped when unreachable) when those modules exist. Each module exposes
`async def run(quick: bool) -> list[str]`; every
line it returns is printed. Exit status 1 when any line carries a FAIL verdict.
"""
from __future__ import annotations

import argparse
import asyncio
import importlib
import importlib.util
import sys
import time

SUITES = {"storage": "benchmarks.storage_bench", "bot": "benchmarks.bot_bench",
          "fair": "benchmarks.fairness_bench",
          "admin": "benchmarks.admin_bench", "public": "benchmarks.public_bench",
          "workers": "benchmarks.workers_bench", "panel": "benchmarks.panel_bench",
          "route": "benchmarks.route_bench", "whatsapp": "benchmarks.whatsapp_bench"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--only", choices=sorted(SUITES), help="run one suite only")
    args = parser.parse_args(argv)
    failed = False
    for name, module_name in SUITES.items():
        if args.only and name != args.only:
            continue
        if importlib.util.find_spec(module_name) is None:
            print(f"[{name}] skipped: {module_name} not present", flush=True)
            continue
        module = importlib.import_module(module_name)
        started = time.perf_counter()
        print(f"[{name}] running{' (quick)' if args.quick else ''}...", flush=True)
        lines = asyncio.run(module.run(args.quick))
        for line in lines:
            print(line, flush=True)
            failed = failed or "FAIL" in line
        print(f"[{name}] done in {time.perf_counter() - started:.1f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
