"""Secrets masked out of outside text before anything is stored.

A coding agent reads `.env` files, prints tokens in shell output and pastes keys into
prompts; a user tells a chat their password. None of that may reach the event log, the
index or the vault, whichever door it came in by: the façade masks every event and memory
it is given (`privacy.mask_secrets`, on by default). Masking keeps the shape (the
variable's name, the key's kind) so the record still reads sensibly, and replaces the
secret itself with `[MASKED]`. Extra patterns come from configuration
(`privacy.secret_patterns`): a match of group 1 if the pattern has groups, else the whole
match, is masked. Masking is idempotent: masked text masked again is the same text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from memoir.errors import ConfigError

__all__ = ["MASK", "Masker", "holds_secret"]

MASK = "[MASKED]"

# (pattern, group masked: 0 = the whole match). Ordered: private key blocks first, so a
# key's base64 lines are not half-masked by the token patterns.
_BUILT_IN: tuple[tuple[str, int], ...] = (
    (r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", 0),
    (r"(?i)\b(?:bearer|basic)\s+([A-Za-z0-9._~+/=-]{12,})", 1),
    # NAME=value and NAME: value where the name says it holds a secret (.env files, YAML,
    # shells): the word must start the name or follow a separator or a camelCase bump, so
    # `api_key`, `DB_PASSWORD` and `apiToken` count and `monkey` does not. A bare `key` is
    # prose as often as not ("primary key: order_id"): only `DB_KEY`-like names count here.
    (
        r"(?m)(?<![\w.-])(?:export\s+)?[\w.-]*?(?:(?:(?<![A-Za-z0-9])|(?<=[_.-]))(?i:api[_-]?key|token|secret|"
        r"password|passwd|pwd|credentials?|private[_-]?key)|(?<=[_.-])(?i:key)|(?<=[a-z])(?:Key|Token|Secret|"
        r"Password|Credentials?))"
        # [ \t] and not \s: an empty `KEY=` must not reach into the next line and mask it.
        r"[\w.-]*[\"']?[ \t]*[:=][ \t]*[\"']?(?!\[MASKED\])([^\s\"',;]{4,})",
        1,
    ),
    # A bare `key: value` only when the value looks like a key: letters and digits, 8 or more.
    (
        r"(?im)(?<![\w.-])key[\"']?[ \t]*[:=][ \t]*[\"']?(?!\[MASKED\])"
        r"((?=[^\s\"',;]*\d)(?=[^\s\"',;]*[A-Za-z])[^\s\"',;]{8,})",
        1,
    ),
    # Said in words: "my password is hunter2", "the wifi passcode: 4471". A password is
    # whatever follows; a token or key only when it looks like one (letters and digits).
    (
        r"(?i)\b(?:password|passphrase|passcode|passwd)(?:\s+(?:is|was)\s+|[ \t]*[:=][ \t]*)(?!\[MASKED\])"
        r"(?!(?:the|a|an|too|not|no|still|same|in|on|at|wrong|incorrect|expired|weak|strong|long|short|"
        r"changed|reset|correct|right|my|your|now|also|just|being|set|saved|stored)\b)([^\s,;]+?)(?=[.!?]?(?:\s|$))",
        1,
    ),
    (r"(?i)\bpin(?: code| number)?(?:\s+(?:is|was)\s+|[ \t]*[:=][ \t]*)(?!\[MASKED\])(\d{3,12})\b", 1),
    (
        r"(?i)\b(?:api[ _-]?key|access[ _-]?key|secret[ _-]?key|token|secret)(?:\s+(?:is|was)\s+|[ \t]*[:=][ \t]*)"
        r"(?!\[MASKED\])((?=[^\s,;]*\d)(?=[^\s,;]*[A-Za-z])[^\s,;]{8,})",
        1,
    ),
    # Passwords on command lines: `mysql -pSECRET`, `--password SECRET`, `sshpass -p SECRET`.
    (r"(?m)\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p(?!\[MASKED\])([^\s\-][^\s]*)", 1),
    (r"(?m)\bsshpass\b[^\n]*?\s-p\s+(?!\[MASKED\])([^\s]+)", 1),
    (r"(?<![\w-])--(?:password|passwd|token|api-key|secret)[ \t]+(?!\[MASKED\])([^\s-][^\s]*)", 1),
    (r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}", 0),  # OpenAI, Anthropic
    (r"\bgh[pousr]_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{30,}", 0),
    (r"\bxox[abposr]-[A-Za-z0-9-]{10,}", 0),  # Slack
    (r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", 0),  # AWS access key ids
    (r"\bAIza[0-9A-Za-z_-]{35}\b", 0),  # Google API keys
    (r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", 0),  # JWTs
    (r"(?i)\b[a-z][a-z0-9+.-]*://[^\s:/@]+:([^\s@/]{3,})@", 1),  # passwords in URLs
)


@dataclass(frozen=True)
class Masker:
    """Masks the built-in patterns and any extra ones; `mask` never raises on any text."""

    extra: tuple[str, ...] = ()
    _compiled: tuple[tuple[re.Pattern[str], int], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        compiled = [(re.compile(pattern, re.S), group) for pattern, group in _BUILT_IN]
        for index, pattern in enumerate(self.extra):
            try:
                regex = re.compile(pattern)
            except (re.error, TypeError) as exc:
                raise ConfigError.at(f"privacy.secret_patterns[{index}]", f"not a regular expression: {exc}") from None
            compiled.append((regex, 1 if regex.groups else 0))
        object.__setattr__(self, "_compiled", tuple(compiled))

    def mask(self, text: str) -> str:
        for regex, group in self._compiled:
            text = regex.sub(functools.partial(_masked, group=group), text)
        return text

    def mask_all(self, values: Mapping[str, str]) -> dict[str, str]:
        return {key: self.mask(value) for key, value in values.items()}

    def mask_many(self, texts: Iterable[str]) -> list[str]:
        return [self.mask(text) for text in texts]

    def mask_tree(self, value: Any) -> Any:
        """A JSON-like value with every string masked, before it is encoded.

        Encoding first would escape the quotes the patterns look for (`\\"password\\": ...`
        inside a tool's JSON output), so the strings are masked where they stand, and a
        scalar under a secret-like key (`{"password": 1234}`) is masked whole.
        """
        if isinstance(value, str):
            return self.mask(value)
        if isinstance(value, Mapping):
            return {key: self._masked_item(key, item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.mask_tree(item) for item in value]
        return value

    def _masked_item(self, key: object, item: Any) -> Any:
        if isinstance(key, str) and _SECRET_KEY.search(key) and isinstance(item, str | int | float) and item != "":
            return MASK if not isinstance(item, bool) else item
        return self.mask_tree(item)


# A mapping key that names a secret (`password`, `apiKey`, `DB_TOKEN`, `client_secret`).
_SECRET_KEY = re.compile(
    r"(?:^|[_.-])(?i:api[_-]?key|token|secret|password|passwd|pwd|credentials?|private[_-]?key)(?:$|[_.-])"
    r"|(?<=[a-z])(?:Key|Token|Secret|Password)(?:$|[A-Z_])|^(?i:key)$"
)


def holds_secret(text: str) -> bool:
    """Whether masked text had a secret in it: a fact that says one is never kept."""
    return MASK in text


def _masked(match: re.Match[str], group: int) -> str:
    if group == 0 or match.group(group) is None:
        return MASK
    start, end = match.span(group)
    whole_start = match.start()
    text = match.group(0)
    return text[: start - whole_start] + MASK + text[end - whole_start :]
