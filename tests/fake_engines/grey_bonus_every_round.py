"""The grey-wall-only engine of grey_only.py with its scoring bug on: the end-of-game bonuses (END-2..4) added at
the end of every round, as a real engine's GUI did. Further flags pass on (`--both-walls`, `--lone-tile-scores-2`)."""
import runpy
import sys
from pathlib import Path

sys.argv.append("--bonus-every-round")
runpy.run_path(str(Path(__file__).with_name("grey_only.py")), run_name="__main__")
