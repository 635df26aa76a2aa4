"""Discord's payload limits, as both test fakes enforce them.

Each function returns what Discord would refuse (HTTP 400, code 50035 "Invalid Form
Body") as sentences; an empty list means Discord takes the payload. The numbers are
Discord's documented limits (see ../shared/TESTING.md), not ours: a message the bot sends
that breaks one fails on real Discord, so it must fail a test here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

CONTENT = 2000
#: message flag IS_COMPONENTS_V2: the message is laid out by its components alone
COMPONENTS_V2 = 1 << 15
V2_TEXT = 4000  # characters in all of a v2 message's text displays
V2_COMPONENTS = 40  # components in a v2 message, nested ones counted
GALLERY_ITEMS = 10  # items in one media gallery (at least one)
SECTION_TEXTS = 3  # text displays in one section (at least one)
#: component types: action row, button, selects, section, text display, thumbnail,
#: media gallery, file, separator, container
ROW, BUTTON, SECTION, TEXT, THUMBNAIL, GALLERY, FILE, SEPARATOR, CONTAINER = (
    1, 2, 9, 10, 11, 12, 13, 14, 17
)  # fmt: skip
SELECTS = {3, 5, 6, 7, 8}
V2_ONLY = {SECTION, TEXT, THUMBNAIL, GALLERY, FILE, SEPARATOR, CONTAINER}
#: what a container may hold, and what may stand at a message's top level
IN_CONTAINER = {ROW, SECTION, TEXT, GALLERY, FILE, SEPARATOR}
TOP_LEVEL = IN_CONTAINER | {CONTAINER}
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
BUTTON_URL = 512  # characters of a link button's address
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


def message_problems(
    data: dict[str, Any], uploads: Sequence[str] = (), *, flags: int | None = None
) -> list[str]:
    """What Discord refuses in a message payload (create or edit) uploading files named
    ``uploads``. ``flags``: those of the message an edit changes (a v2 message stays one,
    whatever the edit says)."""
    problems = []
    content = data.get("content") or ""
    if len(content) > CONTENT:
        problems.append(f"content is {len(content)} characters (max {CONTENT})")
    problems += _embed_problems(data.get("embeds") or [])
    described = data.get("attachments") or []
    if max(len(uploads), len(described)) > ATTACHMENTS:
        problems.append(f"{max(len(uploads), len(described))} attachments (max {ATTACHMENTS})")
    for attachment in described:
        if len(attachment.get("description") or "") > ALT_TEXT:
            problems.append(f"alt text over {ALT_TEXT} characters: {attachment['filename']}")
    components = data.get("components") or []
    v2 = bool(((data.get("flags") or 0) | (flags or 0)) & COMPONENTS_V2)
    if v2:
        named = {*uploads, *(a.get("filename") for a in described)}
        problems += _v2_problems(data, components, named)
    else:
        if any(c.get("type") in V2_ONLY for c in components_of(components)):
            problems.append("v2 components (containers, texts, galleries) need IS_COMPONENTS_V2")
        if len(components) > ROWS:
            problems.append(f"{len(components)} component rows (max {ROWS})")
        if any(c.get("type") != ROW for c in components):
            problems.append("a message without IS_COMPONENTS_V2 holds action rows only")
    problems += _interactive_problems(components)
    return problems


def components_of(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, nested ones included (a section's accessory too), in order."""
    found = []
    for component in components:
        found.append(component)
        found += components_of(component.get("components") or [])
        if component.get("accessory"):
            found += components_of([component["accessory"]])
    return found


def text(message: dict[str, Any] | None) -> str:
    """What a reader sees written in a message or message payload: its ``content``, or,
    in a Components v2 card (which has none), its text displays in order."""
    message = message or {}
    if (message.get("flags") or 0) & COMPONENTS_V2:
        return "\n".join(text_of(message.get("components") or []))
    return message.get("content") or ""


def text_of(components: list[dict[str, Any]]) -> list[str]:
    """The text of every text display, in the order a reader meets them."""
    return [c.get("content") or "" for c in components_of(components) if c.get("type") == TEXT]


def _v2_problems(data: dict[str, Any], components: list[dict[str, Any]], named: set) -> list[str]:
    """Discord's rules for a message with IS_COMPONENTS_V2: components in place of
    ``content`` and ``embeds``, at most 40 of them and 4,000 characters of text, each
    media item a URL or an uploaded file's ``attachment://`` name."""
    problems = []
    if data.get("content") is not None:
        problems.append("content is not allowed with IS_COMPONENTS_V2")
    if data.get("embeds"):
        problems.append("embeds are not allowed with IS_COMPONENTS_V2")
    every = components_of(components)
    if len(every) > V2_COMPONENTS:
        problems.append(f"{len(every)} components (max {V2_COMPONENTS}, nested ones counted)")
    text = sum(len(t) for t in text_of(components))
    if text > V2_TEXT:
        problems.append(f"text displays hold {text} characters (max {V2_TEXT})")
    for component in components:
        if component.get("type") not in TOP_LEVEL:
            problems.append(f"component type {component.get('type')} at the top level")
    for component in every:
        kind = component.get("type")
        inner = component.get("components") or []
        if kind == CONTAINER and any(c.get("type") not in IN_CONTAINER for c in inner):
            problems.append("a container holds rows, sections, texts, galleries, files")
        if kind == TEXT and not (component.get("content") or "").strip():
            problems.append("an empty text display")
        if kind == SECTION and not (
            1 <= len(inner) <= SECTION_TEXTS and all(c.get("type") == TEXT for c in inner)
        ):
            problems.append(f"a section holds 1-{SECTION_TEXTS} text displays")
        if kind == SECTION and (component.get("accessory") or {}).get("type") not in (
            BUTTON,
            THUMBNAIL,
        ):
            problems.append("a section needs a button or thumbnail accessory")
        media = [component.get("media")] if kind == THUMBNAIL else []
        media += [component.get("file")] if kind == FILE else []
        if kind == GALLERY:
            items = component.get("items") or []
            if not 1 <= len(items) <= GALLERY_ITEMS:
                problems.append(f"a media gallery holds {len(items)} items (1-{GALLERY_ITEMS})")
            media += [item.get("media") for item in items]
            for item in [component, *items]:
                if len(item.get("description") or "") > ALT_TEXT:
                    problems.append(f"a media item's alt text is over {ALT_TEXT} characters")
        for item in media:
            url = (item or {}).get("url") or ""
            name = url.removeprefix("attachment://")
            if url.startswith("attachment://") and name not in named:
                problems.append(f"{url} names no uploaded file")
            if not url:
                problems.append("a media item without a url")
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


def _interactive_problems(components: list[dict[str, Any]]) -> list[str]:
    """Rows, buttons and selects, wherever they sit: 1-5 buttons or one select a row,
    custom ids unique in the message and at most 100 characters."""
    problems = []
    seen: set[str] = set()
    for component in components_of(components):
        if component.get("type") == ROW:
            items = component.get("components") or []
            if not 1 <= len(items) <= PER_ROW:
                problems.append(f"a row must hold 1-{PER_ROW} components: {component}")
            if any(i.get("type") in SELECTS for i in items) and len(items) != 1:
                problems.append("a select menu fills its row alone")
            if any(i.get("type") not in {BUTTON, *SELECTS} for i in items):
                problems.append("a row holds buttons or a select only")
        cid = component.get("custom_id")
        if component.get("type") == BUTTON and component.get("style") != 5 and not cid:
            problems.append(f"button without custom_id: {component}")
        if component.get("type") == BUTTON and component.get("style") == 5:
            url = component.get("url") or ""
            if cid is not None or not url.startswith(("http://", "https://")):
                problems.append(f"a link button has a url and no custom_id: {component}")
            if len(url) > BUTTON_URL:
                problems.append(f"a button's url over {BUTTON_URL} characters: {url}")
        if cid is not None:
            if len(cid) > CUSTOM_ID:
                problems.append(f"custom_id over {CUSTOM_ID} characters: {cid}")
            if cid in seen:
                problems.append(f"duplicate custom_id {cid}")
            seen.add(cid)
        if component.get("type") == BUTTON and len(component.get("label") or "") > BUTTON_LABEL:
            problems.append(f"label over {BUTTON_LABEL} characters: {component['label']}")
        if component.get("type") == 3:
            problems += _select_problems(component)
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
