"""Safe YAML loading that remembers line numbers and refuses hostile documents.

Mappings load as `LineDict` (a dict with `.line` and `.key_lines`) and sequences as
`LineList` (a list with `.line` and `.item_lines`), so validation can point at the exact
line of a bad value. Anchors/aliases are rejected: a data catalogue never needs them, and
refusing them makes "billion laughs" alias bombs impossible.
"""

from __future__ import annotations

import yaml

from .errors import SpecError

MAX_SPEC_BYTES = 4 * 1024 * 1024


class LineDict(dict):
    line: int = 0
    key_lines: dict

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LineList(list):
    line: int = 0
    item_lines: list

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if index < len(self.item_lines) else self.line


_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_Base):  # type: ignore[misc, valid-type]
    pass


def _construct_mapping(loader, node):
    result = LineDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            raise SpecError(loader.spec_path, key_node.start_mark.line + 1, None,
                            f"mapping keys must be strings, got {key!r}")
        if key in result:
            raise SpecError(loader.spec_path, key_node.start_mark.line + 1, None,
                            f"duplicate key '{key}'")
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader, node):
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def load_yaml(path: str, display_name: str | None = None):
    """Load `path`; raise SpecError (never a yaml traceback) on anything malformed."""
    name = display_name or path
    with open(path, "rb") as f:
        raw = f.read(MAX_SPEC_BYTES + 1)
    if len(raw) > MAX_SPEC_BYTES:
        raise SpecError(name, None, None, f"file is larger than {MAX_SPEC_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SpecError(name, None, None, f"not valid UTF-8 ({e.reason})") from None
    try:
        for event in yaml.parse(text, Loader=_Base):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                line = event.start_mark.line + 1
                raise SpecError(name, line, None, "YAML anchors and aliases are not allowed")
        loader = _LineLoader(text)
        loader.spec_path = name
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else None
        raise SpecError(name, line, None, f"YAML syntax error: {e.problem or e.context}") from None
    except yaml.YAMLError as e:
        raise SpecError(name, None, None, f"YAML error: {e}") from None
