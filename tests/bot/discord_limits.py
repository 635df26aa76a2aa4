"""Discord's payload limits, as both test fakes enforce them.

Each function returns what Discord would refuse (HTTP 400, code 50035 "Invalid Form
Body") as sentences; an empty list means Discord takes the payload. The numbers are
Discord's documented limits (see ../shared/TESTING.md), not ours: a message the bot sends
that breaks one fails on real Discord, so it must fail a test here.
"""

from __future__ import annotations

import re
from typing import Any

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000
ROWS = 5
PER_ROW = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
OPTION_TEXT = 100  # a select option's label, value and description
PLACEHOLDER = 150
ATTACHMENTS = 10
ALT_TEXT = 1024
CHOICES = 25
CHOICE_TEXT = 100
COMMAND_OPTIONS = 25
DESCRIPTION = 100
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
#: what discord.py sends as the description of an option nobody described
UNDESCRIBED = "…"


def message_problems(data: dict[str, Any], attachments: int = 0) -> list[str]:
    """What Discord refuses in a message payload (create or edit) with ``attachments`` files."""
    problems = []
    content = data.get("content") or ""
    if len(content) > CONTENT:
        problems.append(f"content is {len(content)} characters (max {CONTENT})")
    problems += _embed_problems(data.get("embeds") or [])
    problems += _component_problems(data.get("components") or [])
    described = data.get("attachments") or []
    if max(attachments, len(described)) > ATTACHMENTS:
        problems.append(f"{max(attachments, len(described))} attachments (max {ATTACHMENTS})")
    for attachment in described:
        if len(attachment.get("description") or "") > ALT_TEXT:
            problems.append(f"alt text over {ALT_TEXT} characters: {attachment['filename']}")
    return problems


def _embed_problems(embeds: list[dict[str, Any]]) -> list[str]:
    problems = []
    if len(embeds) > EMBEDS:
        problems.append(f"{len(embeds)} embeds (max {EMBEDS})")
    total = 0
    for embed in embeds:
        fields = embed.get("fields") or []
        texts = {
            "title": (embed.get("title") or "", EMBED_TITLE),
            "description": (embed.get("description") or "", EMBED_DESCRIPTION),
            "footer": ((embed.get("footer") or {}).get("text") or "", EMBED_FOOTER),
            "author": ((embed.get("author") or {}).get("name") or "", EMBED_AUTHOR),
        }
        for name, (text, limit) in texts.items():
            if len(text) > limit:
                problems.append(f"embed {name} is {len(text)} characters (max {limit})")
            total += len(text)
        if len(fields) > EMBED_FIELDS:
            problems.append(f"{len(fields)} embed fields (max {EMBED_FIELDS})")
        for field in fields:
            name, value = field.get("name") or "", field.get("value") or ""
            if len(name) > EMBED_FIELD_NAME or len(value) > EMBED_FIELD_VALUE:
                problems.append(f"embed field {name[:30]!r} is too long")
            total += len(name) + len(value)
    if total > EMBED_TOTAL:
        problems.append(f"embeds hold {total} characters (max {EMBED_TOTAL})")
    return problems


def _component_problems(rows: list[dict[str, Any]]) -> list[str]:
    problems = []
    if len(rows) > ROWS:
        problems.append(f"{len(rows)} component rows (max {ROWS})")
    seen: set[str] = set()
    for row in rows:
        items = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(items) <= PER_ROW:
            problems.append(f"a row must hold 1-{PER_ROW} components: {row}")
        if any(i.get("type") == 3 for i in items) and len(items) != 1:
            problems.append("a select menu fills its row alone")
        for item in items:
            cid = item.get("custom_id")
            if item.get("type") == 2 and item.get("style") != 5 and not cid:
                problems.append(f"button without custom_id: {item}")
            if cid is not None:
                if len(cid) > CUSTOM_ID:
                    problems.append(f"custom_id over {CUSTOM_ID} characters: {cid}")
                if cid in seen:
                    problems.append(f"duplicate custom_id {cid}")
                seen.add(cid)
            if len(item.get("label") or "") > BUTTON_LABEL:
                problems.append(f"label over {BUTTON_LABEL} characters: {item['label']}")
            if item.get("type") == 3:
                problems += _select_problems(item)
    return problems


def _select_problems(select: dict[str, Any]) -> list[str]:
    problems = []
    options = select.get("options") or []
    if not 1 <= len(options) <= SELECT_OPTIONS:
        problems.append(f"a select offers {len(options)} options (1-{SELECT_OPTIONS})")
    if len(select.get("placeholder") or "") > PLACEHOLDER:
        problems.append(f"select placeholder over {PLACEHOLDER} characters")
    for option in options:
        for key in ("label", "value", "description"):
            text = option.get(key) or ""
            if len(text) > OPTION_TEXT:
                problems.append(f"select option {key} over {OPTION_TEXT} characters: {text}")
        if not option.get("label") or not option.get("value"):
            problems.append(f"select option without label or value: {option}")
    values = [o.get("value") for o in options]
    if len(values) != len(set(values)):
        problems.append("select options with the same value")
    return problems


def autocomplete_problems(choices: list[dict[str, Any]]) -> list[str]:
    problems = []
    if len(choices) > CHOICES:
        problems.append(f"{len(choices)} choices (max {CHOICES})")
    for choice in choices:
        if not 1 <= len(choice["name"]) <= CHOICE_TEXT or len(str(choice["value"])) > CHOICE_TEXT:
            problems.append(f"bad choice {choice}")
    return problems


def command_problems(command: dict[str, Any], path: str = "") -> list[str]:
    """What Discord refuses in one synced application command (or sub-command)."""
    name = command.get("name", "")
    where = f"{path} {name}".strip()
    problems = []
    if not COMMAND_NAME.fullmatch(name) or name != name.lower():
        problems.append(f"/{where}: a name is 1-32 lowercase letters, digits, - or _")
    description = command.get("description") or ""
    if command.get("type", 1) in (1, None) and not 1 <= len(description) <= DESCRIPTION:
        problems.append(f"/{where}: a description is 1-{DESCRIPTION} characters")
    options = command.get("options") or []
    if len(options) > COMMAND_OPTIONS:
        problems.append(f"/{where}: {len(options)} options (max {COMMAND_OPTIONS})")
    required_done = False
    names = [o["name"] for o in options]
    if len(names) != len(set(names)):
        problems.append(f"/{where}: two options with one name")
    for option in options:
        if option["type"] in (1, 2):  # a sub-command or group: the same rules one level down
            problems += command_problems({**option, "type": 1}, where)
            continue
        label = f"/{where} {option['name']}"
        if not COMMAND_NAME.fullmatch(option["name"]) or option["name"] != option["name"].lower():
            problems.append(f"{label}: a name is 1-32 lowercase letters, digits, - or _")
        text = option.get("description") or ""
        if not 1 <= len(text) <= DESCRIPTION:
            problems.append(f"{label}: a description is 1-{DESCRIPTION} characters")
        if option.get("required"):
            if required_done:
                problems.append(f"{label}: a required option after an optional one")
        else:
            required_done = True
        choices = option.get("choices") or []
        if choices and option.get("autocomplete"):
            problems.append(f"{label}: autocomplete may not be set with choices")
        if option.get("autocomplete") and option["type"] not in (3, 4, 10):
            problems.append(f"{label}: only a string or a number can autocomplete")
        bounds = [option.get(k) for k in ("min_value", "max_value") if option.get(k) is not None]
        if bounds and option["type"] not in (4, 10):
            problems.append(f"{label}: only a number has a min_value or max_value")
        if len(bounds) == 2 and bounds[0] > bounds[1]:
            problems.append(f"{label}: min_value over max_value")
        if len(choices) > CHOICES:
            problems.append(f"{label}: {len(choices)} choices (max {CHOICES})")
        for choice in choices:
            if not 1 <= len(choice["name"]) <= CHOICE_TEXT:
                problems.append(f"{label}: choice name {choice['name']!r} over {CHOICE_TEXT}")
    return problems


def undescribed(command: dict[str, Any], path: str = "") -> list[str]:
    """Options and sub-commands whose description is discord.py's placeholder: Discord
    takes them, but a user sees "…" where the option should say what it is for."""
    where = f"{path} {command['name']}".strip()
    found = []
    for option in command.get("options") or []:
        if option.get("description") == UNDESCRIBED:
            found.append(f"/{where} {option['name']}")
        if option["type"] in (1, 2):
            found += undescribed(option, where)
    return found
