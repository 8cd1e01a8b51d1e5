"""The reference engine, slow: `python slow.py --delay 0.05` answers every `play` after 50 ms (_common.py)."""
import sys

from _common import serve

sys.exit(serve(lambda request, reply, server: reply))
