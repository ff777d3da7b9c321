"""Files that hold another file's text in another human language: Android's
`res/values-fr/strings.xml` beside `res/values/strings.xml`, Rails' `config/locales/fr.yml`
beside `en.yml`, `messages_fr.properties`, `Resources.fr.resx`, `fr.lproj/Localizable.strings`,
`locales/fr/auth.php`, `README.zh-CN.md`. A question meets every translation through the keys
they share, and ten of them fill the list; search ranks them below the file they translate."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

import langcodes

# A language tag as file names write it: `fr`, `pt-BR`, `pt_BR`, Android's `pt-rBR`,
# `zh-Hans`, `zh-Hant-TW`, `es-419`; a lower-case region only after `-` (`zh-cn.json`),
# since `_db` and `_ms` end ordinary names.
_TAG = (
    r"(?P<lang>[a-z]{2})"
    r"(?:[-_]r?[A-Z]{2}|-[a-z]{2}|[-_]\d{3}|[-_][A-Z][a-z]{3}(?:[-_][A-Z]{2})?)?"
)
# A folder whose name is the tag: `locales/fr/`, `lang/pt-BR/`, `fr.lproj/` (Apple's).
_FOLDER = re.compile(rf"{_TAG}(?P<lproj>\.lproj)?")
# Android's resource folders: `values-fr`, `values-pt-rBR`, `raw-de`; the default is `values`.
_ANDROID_BASES = ("values", "raw", "xml", "layout", "menu")
_ANDROID = re.compile(
    rf"(?P<base>{'|'.join(_ANDROID_BASES)})-(?:{_TAG}|b\+(?P<bcp>[a-z]{{2}})(?:\+\w+)*)"
)
# A tag at the end of a file's stem: `devise.fr.yml`, `messages_fr.properties`,
# `README.zh-CN.md`; read only in text and resource files, since code names end in `_id`,
# `_is` or `_ms` (`user_id.py` is no Indonesian `user.py`), and not after `-`, which joins
# words (`append-to.html`).
_SUFFIX = re.compile(rf"(?P<stem>.+?)[._]{_TAG}(?P<ext>\.[^.]+)")
_STEM = re.compile(rf"{_TAG}(?P<ext>\.[^.]+)")
RESOURCE_EXTENSIONS = frozenset(
    {".yml", ".yaml", ".json", ".xml", ".properties", ".resx", ".arb", ".strings",
     ".stringsdict", ".po", ".xlf", ".xliff", ".ftl", ".lang", ".ini", ".toml", ".md",
     ".rst", ".txt", ".adoc", ".html", ".csv"}
)  # fmt: skip
ENGLISH = "en"
_DEFAULT = ""  # the member that names no language: `values/`, `messages.properties`
_APPLE_DEFAULT = "Base.lproj"
# Without a default member, this many files that differ only by their language are all
# translations (gettext's `locale/<lang>/LC_MESSAGES/django.po`), in resource formats only.
FAMILY_MOST = 3


@lru_cache(maxsize=4096)
def is_language(code: str) -> bool:
    """Whether a two-letter code is an ISO 639-1 language (`fr`, `bn`; not `go` or `db`)."""
    return langcodes.tag_is_valid(code)


def _forms(path: str) -> Iterable[tuple[str, str]]:
    """Each way `path` reads as one member of a family of translations: (the family's key,
    with `{}` where the language goes; the member's language, or _DEFAULT)."""
    parts = path.split("/")
    name = parts[-1]
    for at, folder in enumerate(parts[:-1]):
        head, tail = "/".join(parts[:at]), "/".join(parts[at + 1 :])
        if folder == _APPLE_DEFAULT:
            yield f"{head}/{{}}.lproj/{tail}", _DEFAULT
        elif match := _FOLDER.fullmatch(folder):
            key = f"{head}/{{}}{match.group('lproj') or ''}/{tail}"
            yield key, match.group("lang")
        elif match := _ANDROID.fullmatch(folder):
            lang = match.group("lang") or match.group("bcp")
            yield f"{head}/{match.group('base')}-{{}}/{tail}", lang
        elif folder in _ANDROID_BASES:
            yield f"{head}/{folder}-{{}}/{tail}", _DEFAULT
    folder = "/".join(parts[:-1])
    if match := _STEM.fullmatch(name):
        yield f"{folder}/{{}}{match.group('ext')}", match.group("lang")
    stem, dot, ext = name.rpartition(".")
    if not dot or "." + ext.lower() not in RESOURCE_EXTENSIONS:
        return
    if match := _SUFFIX.fullmatch(name):
        yield f"{folder}/{match.group('stem')}{{}}{match.group('ext')}", match.group("lang")
    yield f"{folder}/{stem}{{}}.{ext}", _DEFAULT  # `messages.properties`, `README.md`


def translations(paths: Iterable[str]) -> dict[str, str]:
    """Each path that translates another file -> the file it translates (the family's
    member that names no language, else its English one), or the family's pattern when
    none does (`locale/{}/LC_MESSAGES/django.po`)."""
    families: dict[str, dict[str, str]] = {}
    for path in paths:
        for key, lang in _forms(path):
            if lang and not is_language(lang):
                continue
            families.setdefault(key, {})[path] = lang
    found: dict[str, str] = {}
    for key, members in families.items():
        named = [path for path, lang in members.items() if lang]
        if not named or len(members) < 2:
            continue
        source = _source(members)
        if source is None:
            resource = any(_is_resource(path) for path in named)
            if len(named) < FAMILY_MOST or not resource:
                continue
            source = key.replace("{}", "<language>")
        for path in named:
            if path != source:
                found.setdefault(path, source)
    return found


def _source(members: dict[str, str]) -> str | None:
    for path, lang in members.items():
        if lang == _DEFAULT:
            return path
    english = sorted(path for path, lang in members.items() if lang == ENGLISH)
    return english[0] if english else None


def _is_resource(path: str) -> bool:
    _, dot, ext = path.rpartition(".")
    return bool(dot) and "." + ext.lower() in RESOURCE_EXTENSIONS
