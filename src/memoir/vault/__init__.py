"""The vault: memories as Markdown files with YAML front matter, the source of truth."""

from memoir.vault.book import MemoryBook, MemoryNotFound
from memoir.vault.drafts import MemoryDraft
from memoir.vault.files import VaultFileError, safe_name
from memoir.vault.sync import SyncReport
from memoir.vault.vault import Vault

__all__ = ["MemoryBook", "MemoryDraft", "MemoryNotFound", "SyncReport", "Vault", "VaultFileError", "safe_name"]
