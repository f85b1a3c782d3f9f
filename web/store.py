"""Game persistence in SQLite: every action is stored before the table acts on it.

A game is its setup plus an append-only list of actions (rolls, marks, passes, undos...). Restarting the
server replays the list of the unfinished game, so the state after a restart is exactly the stored one.
Seat and host tokens are kept only as SHA-256 hashes: the database never holds a usable token.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from dataclasses import dataclass

log = logging.getLogger(__name__)

APPLICATION_ID = 0x51574958  # "QWIX": marks the file as ours (PRAGMA application_id)
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    setup TEXT NOT NULL,
    origin TEXT NOT NULL DEFAULT 'played',
    finished REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS seat_tokens (
    token_hash TEXT NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id),
    person INTEGER NOT NULL,
    joined REAL NOT NULL,
    PRIMARY KEY (token_hash, game_id, person)
);
CREATE TABLE IF NOT EXISTS host_tokens (
    token_hash TEXT PRIMARY KEY,
    created REAL NOT NULL
);
"""


class StorageError(RuntimeError):
    """The database could not be written or read: the action was not taken."""


class DamagedDatabase(RuntimeError):
    """The database file is not ours or is damaged; it was moved aside to `kept_as`."""

    def __init__(self, path: str, kept_as: str, reason: str) -> None:
        super().__init__(f"The games file {path} could not be used ({reason}). It was kept as {kept_as} and a "
                         "fresh one was started: set up a new game.")
        self.path = path
        self.kept_as = kept_as
        self.reason = reason


class NewerDatabase(StorageError):
    """A database a newer version wrote: left as it is, since this version would misread it."""


class NotOurs(sqlite3.DatabaseError):
    """A file SQLite can read that is not a sound qwixx-table database."""


def _is_damage(error: sqlite3.DatabaseError) -> bool:
    """Damaged or foreign content, as opposed to a file that cannot be opened or written."""
    name = getattr(error, "sqlite_errorname", None) or ""
    return isinstance(error, NotOurs) or name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT"))


def hold_exclusively(path: str):
    """A lock on the games file at `path`, held while the returned file stays open. Two tables on one file would
    each number their actions alone and refuse each other's, and the second would change the first one's PIN."""
    lock = open(f"{path}.lock", "a")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise StorageError(f"The games file {path} is in use by another qwixx-table: stop that one first, or give "
                           "this one another --database.") from None
    return lock


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class StoredGame:
    id: int
    created: float
    setup: dict
    origin: str  # "played" or "imported"
    finished: float | None
    result: dict | None
    actions: list[dict]


class Store:
    """One connection shared by the app's threads, serialised by a lock (SQLite writes are serial anyway)."""

    def __init__(self, path: str, alone: bool = False) -> None:
        """`alone`: hold the file against any other table (hold_exclusively) for as long as this store is open."""
        self.path = path
        self.damaged: DamagedDatabase | None = None
        self._lock = threading.Lock()
        # Taken before the file is opened: a second table must not change the first one's file, not even its PIN.
        self._held = hold_exclusively(path) if alone else None
        try:
            self._db = self._open(path)
        except sqlite3.DatabaseError as error:
            if not _is_damage(error):
                # A file that cannot be opened or written (no such folder, read-only, disk full) is not
                # damaged: moving it aside would hide every game in it, so the table does not start.
                raise StorageError(f"The database {path} cannot be used ({error}): check that its folder exists "
                                   "and is writable, and that the disk has free space.") from error
            self.damaged = self._set_aside(path, str(error))
            try:
                self._db = self._open(path)
            except sqlite3.DatabaseError as again:
                raise StorageError(f"A fresh database {path} cannot be made ({again}).") from again
        self._identity = self._file_identity()

    @staticmethod
    def _set_aside(path: str, reason: str) -> DamagedDatabase:
        """A damaged or foreign file is kept for inspection under a new name, never overwritten."""
        stem = f"{path}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
        kept_as = next(name for name in (stem, *(f"{stem}-{n}" for n in range(2, 1000))) if not os.path.exists(name))
        try:
            os.replace(path, kept_as)
            for suffix in ("-wal", "-shm"):
                if os.path.exists(path + suffix):
                    os.replace(path + suffix, kept_as + suffix)
        except OSError as error:
            raise StorageError(f"The database {path} is damaged ({reason}) and cannot be moved aside "
                               f"({error.strerror}).") from error
        return DamagedDatabase(path, kept_as, reason)

    @staticmethod
    def _open(path: str) -> sqlite3.Connection:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables):
                raise NotOurs("not a qwixx-table database")
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise NotOurs("the file failed SQLite's integrity check")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise NewerDatabase(f"The database {path} was written by a newer qwixx-table (format {version}; this "
                                    f"one reads up to {SCHEMA_VERSION}): run that version, or give this one another "
                                    "--database.")
            db.execute("PRAGMA journal_mode = WAL")
            # FULL: an acknowledged action survives a power cut, not only a crash of the process.
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except (sqlite3.DatabaseError, NewerDatabase):
            db.close()
            raise
        return db

    def close(self) -> None:
        with self._lock:
            self._db.close()
            if self._held is not None:
                self._held.close()

    def _file_identity(self) -> tuple[int, int] | None:
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            return None
        return found.st_dev, found.st_ino

    def _still_our_file(self) -> None:
        """SQLite goes on writing to a file deleted while it is open, and everything written would be lost at the next
        start: a deleted file is written again from the open one first; a file put in its place is not overwritten."""
        found = self._file_identity()
        if found == self._identity:
            return
        if found is not None:
            raise StorageError(f"The games file {self.path} was replaced while the table ran; nothing was changed. "
                               "Restart qwixx-table to use the new file.")
        try:
            if self._held is not None:  # its lock file went with it (rm qwixx.sqlite*)
                self._held.close()
                self._held = hold_exclusively(self.path)
            with contextlib.closing(sqlite3.connect(self.path)) as copy:
                self._db.backup(copy)
            self._db.close()
            self._db = self._open(self.path)
            self._identity = self._file_identity()
        except sqlite3.Error as error:
            raise StorageError(f"The games file {self.path} was deleted while the table ran, and cannot be written "
                               f"again ({error}); nothing was changed.") from error
        log.warning("the games file %s was deleted while the table ran; it was written again from the open copy",
                    self.path)

    @contextlib.contextmanager
    def _writing(self):
        """One transaction under the lock; any SQLite failure (disk full, read-only file) is a StorageError."""
        with self._lock:
            self._still_our_file()
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                raise StorageError(f"The game could not be saved ({error}); nothing was changed.") from error

    def _write(self, sql: str, params: tuple = ()) -> None:
        with self._writing() as db:
            db.execute(sql, params)

    def _read(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as error:
                raise StorageError(f"The saved games could not be read ({error}).") from error

    # settings ---------------------------------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM settings WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def keep_setting(self, key: str, value: str) -> None:
        self._write("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

    # games ------------------------------------------------------------------------------------------

    def new_game(self, setup: dict, origin: str = "played", actions: list[dict] = (), now: float | None = None, *,
                 result: dict | None = None, abandon: int | None = None, abandoned_result: dict | None = None,
                 phones_from: int | None = None) -> int:
        """Store a game in one transaction, so that a failed write leaves everything as it was: its setup, its
        actions and `result` (an imported record, kept as finished), the game in progress it ends (`abandon`, with
        its `abandoned_result` as abandon_game takes it) and the game whose phones keep their seats (`phones_from`,
        "play again")."""
        now = time.time() if now is None else now
        with self._writing() as db:
            if abandon is not None:
                self._abandon(db, abandon, abandoned_result, now)
            game_id = db.execute("INSERT INTO games (created, setup, origin, finished, result) VALUES (?, ?, ?, ?, ?)",
                                 (now, json.dumps(setup), origin, None if result is None else now,
                                  None if result is None else json.dumps(result))).lastrowid
            db.executemany("INSERT INTO actions (game_id, seq, at, action) VALUES (?, ?, ?, ?)",
                           [(game_id, seq, now, json.dumps(action)) for seq, action in enumerate(actions)])
            if phones_from is not None:
                db.execute("INSERT OR IGNORE INTO seat_tokens (token_hash, game_id, person, joined) "
                           "SELECT token_hash, ?, person, joined FROM seat_tokens WHERE game_id = ?",
                           (game_id, phones_from))
        return game_id

    def append_action(self, game_id: int, seq: int, action: dict, now: float | None = None) -> None:
        """Store one action; `seq` must be the next number, so two writers can never interleave."""
        self._write(
            "INSERT INTO actions (game_id, seq, at, action) VALUES (?, ?, ?, ?)",
            (game_id, seq, time.time() if now is None else now, json.dumps(action)),
        )

    def finish_game(self, game_id: int, result: dict, now: float | None = None) -> None:
        self._write(
            "UPDATE games SET finished = ?, result = ? WHERE id = ?",
            (time.time() if now is None else now, json.dumps(result), game_id),
        )

    def reopen_game(self, game_id: int) -> None:
        """An undo after the end makes a finished game unfinished again."""
        self._write("UPDATE games SET finished = NULL, result = NULL WHERE id = ?", (game_id,))

    def game(self, game_id: int) -> StoredGame | None:
        if not 0 <= game_id < 2**63:  # past SQLite's integers (an address typed by hand): no such game
            return None
        rows = self._read("SELECT id, created, setup, origin, finished, result FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        actions = [json.loads(row[0]) for row in self._read(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
        return self._stored_game(rows[0], actions)

    @staticmethod
    def _stored_game(row: tuple, actions: list[dict]) -> StoredGame:
        game_id, created, setup, origin, finished, result = row
        return StoredGame(game_id, created, json.loads(setup), origin, finished,
                          None if result is None else json.loads(result), actions)

    def latest_game_id(self) -> int | None:
        """The game the table takes up again at start: the last one played, unless the host ended it (before its end,
        or after, clearing the table)."""
        rows = self._read("SELECT id, origin FROM games WHERE origin IN ('played', 'abandoned') ORDER BY id DESC LIMIT 1")
        if not rows or rows[0][1] == "abandoned" or self.setting("cleared_game") == str(rows[0][0]):
            return None
        return rows[0][0]

    def clear_table(self, game_id: int) -> None:
        """The host ended finished game `game_id`: it stays listed, and is not shown again at the next start."""
        self.keep_setting("cleared_game", str(game_id))

    def ended_games(self) -> list[StoredGame]:
        """The games the list shows, the last ended first: finished, ended by the host after some play, imported."""
        rows = self._read("SELECT id, created, setup, origin, finished, result FROM games "
                          "WHERE finished IS NOT NULL ORDER BY finished DESC")
        return [self._stored_game(row, []) for row in rows]

    def abandon_game(self, game_id: int, result: dict | None = None) -> None:
        """A game ended by the host before its end: kept, but no longer the game in progress. With its `result` so far
        (a game that was played at all) it ends now and is listed among the ended games."""
        with self._writing() as db:
            self._abandon(db, game_id, result, time.time())

    @staticmethod
    def _abandon(db, game_id: int, result: dict | None, now: float) -> None:
        db.execute("UPDATE games SET origin = 'abandoned', finished = ?, result = ? WHERE id = ?",
                   (None if result is None else now, None if result is None else json.dumps(result), game_id))

    # tokens -----------------------------------------------------------------------------------------

    # Phones join as a person (one of the names at the table); the game says which seats a person plays.

    def add_seat_token(self, token: str, game_id: int, person: int, now: float | None = None) -> None:
        """`token` now plays for `person`, and no other phone does."""
        with self._writing() as db:
            db.execute("DELETE FROM seat_tokens WHERE game_id = ? AND person = ?", (game_id, person))
            db.execute("INSERT INTO seat_tokens (token_hash, game_id, person, joined) VALUES (?, ?, ?, ?)",
                       (token_hash(token), game_id, person, time.time() if now is None else now))

    def people_of_token(self, token: str, game_id: int) -> list[int]:
        rows = self._read("SELECT person FROM seat_tokens WHERE token_hash = ? AND game_id = ? ORDER BY person",
                          (token_hash(token), game_id))
        return [row[0] for row in rows]

    def joined_people(self, game_id: int) -> set[int]:
        return {row[0] for row in self._read("SELECT person FROM seat_tokens WHERE game_id = ?", (game_id,))}

    def add_host_token(self, token: str, now: float) -> None:
        self._write("INSERT INTO host_tokens (token_hash, created) VALUES (?, ?)", (token_hash(token), now))

    def replace_host_pin(self, pin: str) -> None:
        """A new host PIN; the browsers unlocked with the old one are signed out."""
        with self._writing() as db:
            db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES ('host_pin', ?)", (pin,))
            db.execute("DELETE FROM host_tokens")

    def is_host_token(self, token: str, since: float) -> bool:
        """Whether `token` unlocked host controls at `since` or later and was not locked since."""
        return bool(self._read("SELECT 1 FROM host_tokens WHERE token_hash = ? AND created >= ?",
                               (token_hash(token), since)))

    def remove_host_token(self, token: str) -> None:
        self._write("DELETE FROM host_tokens WHERE token_hash = ?", (token_hash(token),))

    def any_host_token(self, since: float) -> bool:
        return bool(self._read("SELECT 1 FROM host_tokens WHERE created >= ? LIMIT 1", (since,)))
