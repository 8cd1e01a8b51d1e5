"""`azul smoke` on an engine that fails to start shows the engine's stderr whole, as far as the suite keeps it
(its last lines, bounded), not only its last line: Node prints the cause ("Cannot find module") above its
version line."""

from __future__ import annotations

import subprocess
import sys


def test_a_failed_start_shows_every_kept_line_of_stderr_and_no_more(tmp_path):
    engine = tmp_path / "fails.py"
    engine.write_text("import sys\n"
                      "sys.stderr.write(''.join(f'noise {i}\\n' for i in range(500)))\n"
                      "sys.stderr.write(\"Error: Cannot find module '/x/engine.js'\\n\\nNode.js v20.20.2\\n\")\n"
                      "sys.exit(1)\n")
    azul = [sys.executable, "-c", "import sys; from azul_conformance.cli import main; sys.exit(main())"]
    run = subprocess.run(azul + ["smoke", "--engine", f"{sys.executable} {engine}"], capture_output=True,
                         text=True, timeout=60)
    out = run.stdout + run.stderr
    assert run.returncode != 0 and "Traceback" not in out
    assert "Cannot find module '/x/engine.js'" in out and "Node.js v20.20.2" in out, out
    assert "noise 499" in out and "noise 0\n" not in out and len(out) < 8000  # bounded: the tail only
