"""Reading documents we did not write (YAML scenarios and spec files, JSON states and reports): bounded in
size and depth, strict in what they accept, and every failure one exception type with a position.

YAML: safe_load's types, no aliases, bounded nesting, every failure a YAMLError. Aliases are refused because a
few hundred bytes of nested anchors and aliases expand to gigabytes once something (jsonschema's error message,
a deep copy) walks the result; none of our files needs them. libyaml's parser reads the text where PyYAML
would read it the same way (a few characters it reads differently send a text to PyYAML alone), and PyYAML
reads again whatever libyaml refuses, so the data, the positions and every error are PyYAML's.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

MAX_DEPTH = 64  # a scenario or spec file nests a handful of levels


class _Composer(yaml.composer.Composer):
    """PyYAML's composer with our limits: no alias, no more than MAX_DEPTH levels."""

    def __init__(self) -> None:
        super().__init__()
        self._depth = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed in this file", mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep",
                                                  self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _integer(loader: yaml.constructor.SafeConstructor, node: yaml.ScalarNode) -> int:
    if len(node.value) > 100:  # int() refuses 4,300 digits; nothing in our files needs a hundred
        raise yaml.constructor.ConstructorError(None, None, f"a number of {len(node.value)} digits", node.start_mark)
    return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)


class _Constructor(yaml.constructor.SafeConstructor):
    pass


_Constructor.add_constructor("tag:yaml.org,2002:int", _integer)


class _Loader(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, _Composer, _Constructor,
              yaml.resolver.Resolver):
    """The reference reader, all in Python: what it accepts and how it words a refusal is what we promise."""

    def __init__(self, text: str) -> None:
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        _Composer.__init__(self)
        _Constructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)

    def fetch_flow_collection_start(self, TokenClass):
        # The scanner reads ahead of the composer while a `[` or `{` may still start a key, and checks every
        # open one at each token: a thousand of them on one line cost a million steps before any depth check.
        if self.flow_level >= MAX_DEPTH:
            raise yaml.scanner.ScannerError(None, None, f"nested more than {MAX_DEPTH} levels deep",
                                            self.get_mark())
        super().fetch_flow_collection_start(TokenClass)


# Where libyaml and PyYAML read the same text differently: a tab inside a line (libyaml takes it into a plain
# scalar, PyYAML refuses it), `?` (in a flow collection PyYAML ends a plain scalar there), a byte-order mark
# after the start, and line breaks other than \n (columns are counted differently after them). A text with any
# of them is read by PyYAML alone.
_PYYAML_OWN = re.compile("[\t?\ufeff\r\x85\u2028\u2029]")
_FastLoader: type | None = None
if getattr(yaml, "__with_libyaml__", False):
    class _FastLoader(_Composer, yaml.cyaml.CParser, _Constructor, yaml.resolver.Resolver):  # type: ignore[no-redef]
        """libyaml's scanner and parser (about four times faster) under the same composer, constructor and
        resolver. Only its events are used: a text it refuses is read again by _Loader, for the same error."""

        def __init__(self, text: str) -> None:
            yaml.cyaml.CParser.__init__(self, text)
            _Composer.__init__(self)
            _Constructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

        def compose_scalar_node(self, anchor):
            node = super().compose_scalar_node(anchor)
            node.style = node.style or None  # a plain scalar: libyaml says '', PyYAML None
            return node


def compose(text: str) -> tuple[yaml.Node | None, Any]:
    """The single document of `text` as a node tree (for positions) and as data (safe_load's types).

    Raises yaml.YAMLError for anything wrong with the text, including control characters and numbers too long
    for int() (which PyYAML lets through as ValueError).
    """
    if _FastLoader is not None and not _PYYAML_OWN.search(text):
        try:
            return _read(_FastLoader(text))
        except (yaml.YAMLError, ValueError):  # (ValueError: a lone surrogate cannot be given to libyaml)
            pass  # refused: the reference reader says where and why, in its own words
    try:
        loader = _Loader(text)  # control characters are refused here, before any parsing
    except yaml.reader.ReaderError as error:
        before = text[:error.position]
        mark = yaml.Mark("<text>", error.position, before.count("\n"), len(before) - (before.rfind("\n") + 1),
                         None, None)
        code = ord(error.character) if isinstance(error.character, str) else error.character
        raise yaml.MarkedYAMLError(None, None, f"character U+{code:04X} is not allowed in a YAML file", mark) from None
    try:
        return _read(loader)
    except ValueError as error:  # an integer over 4,300 digits
        raise yaml.constructor.ConstructorError(None, None, f"a value cannot be read: {error}", None) from None


def _read(loader) -> tuple[yaml.Node | None, Any]:
    try:
        node = loader.get_single_node()
        return node, loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()


def load(text: str) -> Any:
    """The data of `text`, read as yaml.safe_load would, with the limits above."""
    return compose(text)[1]


_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)) if chr(c) not in "\n\t"}


def safe_text(text: object, limit: int | None = None) -> str:
    """Text from outside (an engine, a record, a file), made safe for every output: no lone surrogates (they
    cannot be encoded), no control characters (terminal escapes; invalid in XML) except newline and tab;
    optionally clipped.

    Applied at the boundaries (every EngineError, the hello's name and version, a record's names), so reports and
    the terminal never see raw outside text. Markup (Markdown, HTML, Rich) is each output's own business.
    """
    text = str(text).encode("utf-8", "replace").decode("utf-8").translate(_CONTROL)
    if limit is not None and len(text) > limit:
        text = text[:limit] + f"... ({len(text)} characters)"
    return text


class JsonError(ValueError):
    """A JSON text that cannot be read: the reason, and the line and column (1-based) when known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def json_document(text: str | bytes) -> Any:
    """Strict JSON: no NaN or Infinity, nesting as deep as the parser goes, integers under 4,300 digits."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise JsonError(f"not valid JSON: {error.msg}", error.lineno, error.colno) from None
    except RecursionError:
        raise JsonError("not valid JSON: nested deeper than any document we read") from None
    except ValueError as error:  # NaN, Infinity, or an integer too long for int()
        raise JsonError(f"not valid JSON: {error}") from None
