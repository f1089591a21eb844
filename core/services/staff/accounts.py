"""Panel accounts: who may enter the staff panel (administrator or servant), their argon2
password hashes, logging in and out (a session version ends every session at once) and the
actor the timeline records for them."""
from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from functools import lru_cache
from datetime import datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select

from core.lifecycle import Actor
from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.storage.models import StaffUser
from core.storage.timeline import ActorRef

ROLES = ("admin", "staff")
ROLE_LABELS = {"admin": "Administrador(a)", "staff": "Servidor(a)"}
MIN_PASSWORD = 10
_USERNAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{1,39}$")
#: argon2id at RFC 9106's second recommended option (t=3, 64 MiB, 4 lanes): ~0.15 s of CPU a
#: hash here, so hashing and verifying run in a thread (the C code releases the GIL) and
#: outside any write transaction: a login never stalls the panel's other requests.
_hasher = PasswordHasher()


@lru_cache(maxsize=2)
def _dummy_hash(hasher: PasswordHasher) -> str:
    """Verified when the username does not exist, so a miss costs as long as a wrong
    password (made on first use, not at import: a command-line run pays nothing for it)."""
    return hasher.hash("via-livre-dummy-password")


async def _hash(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def _verifies(password_hash: str | None, password: str) -> bool:
    hasher = _hasher

    def verify() -> bool:
        try:
            return hasher.verify(password_hash or _dummy_hash(hasher), password)
        except (VerificationError, InvalidHashError):
            return False
    return await asyncio.to_thread(verify)

#: Who acts from the command line (python -m admin): staff, without a panel account.
CLI_ACTOR = ActorRef(Actor.STAFF.value, None, "cli")


@dataclass(frozen=True)
class StaffUserInfo:
    id: int
    username: str
    role: str
    active: bool
    last_login_at: datetime | None = None
    session_version: int = 0  # sessions signed with another version are over
    #: The one city this account works for; None: an installation administrator
    municipality: str | None = None

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    @property
    def is_installation_admin(self) -> bool:
        """An administrator of every city the installation serves (acts as one at a time)."""
        return self.is_admin and self.municipality is None

    def manages(self, municipality: str | None) -> bool:
        """May this administrator manage an account of `municipality` (None: installation)?"""
        return self.is_installation_admin or (self.is_admin and municipality is not None
                                              and municipality == self.municipality)

    def actor(self) -> ActorRef:
        """How the timeline records this person."""
        return ActorRef(Actor.STAFF.value, self.id, self.username)


def _info(u: StaffUser) -> StaffUserInfo:
    return StaffUserInfo(u.id, u.username, u.role, u.active, u.last_login_at,
                         u.session_version or 0, u.municipality)


async def create_user(core: Core, username: str, password: str, role: str,
                      municipality: str | None = None, *,
                      by: StaffUserInfo | None = None) -> StaffUserInfo:
    """A panel account of one city (`municipality`; a servant without one works for the Core's
    city) or, for an administrator without one, of the whole installation. `by`, when an
    administrator of one city creates it, may only create accounts of that city."""
    if municipality is None and role != "admin":
        municipality = core.municipality
    if municipality is not None and core.city_named(municipality) is None:
        raise InvalidInput(f"Município desconhecido: “{municipality}”. Use o identificador de "
                           "um município atendido (ex.: dores-do-indaia).", "municipality")
    if by is not None and not by.manages(municipality):
        raise InvalidInput("Você só pode criar contas do seu município.", "municipality")
    username = (username or "").strip().lower()
    if not _USERNAME_RE.match(username):
        raise InvalidInput("Nome de usuário inválido: use de 2 a 40 letras minúsculas, "
                           "números, ponto, hífen ou sublinhado.", "username")
    if role not in ROLES:
        raise InvalidInput("Perfil inválido: escolha administrador(a) ou servidor(a).", "role")
    if len(password or "") < MIN_PASSWORD:
        raise InvalidInput(f"A senha precisa ter pelo menos {MIN_PASSWORD} caracteres.",
                           "password")
    async with core.db.read() as s:
        taken = (await s.execute(select(StaffUser.id).where(StaffUser.username == username))
                 ).first()
    if taken:
        raise InvalidInput(f"Já existe um usuário “{username}”.", "username")
    password_hash = await _hash(password)
    async with core.db.unit_of_work() as s:
        if (await s.execute(select(StaffUser.id).where(StaffUser.username == username))).first():
            raise InvalidInput(f"Já existe um usuário “{username}”.", "username")
        user = StaffUser(username=username, password_hash=password_hash, role=role,
                         municipality=municipality, active=True, created_at=core.now())
        s.add(user)
        await s.flush()
        return _info(user)


async def authenticate(core: Core, username: str, password: str) -> StaffUserInfo | None:
    """The active user with this username and password, or None (never says which was wrong)."""
    username = (username or "").strip().lower()
    async with core.db.read() as s:
        known = (await s.execute(select(StaffUser.id, StaffUser.password_hash, StaffUser.active)
                                 .where(StaffUser.username == username))).first()
    if not await _verifies(known.password_hash if known else None, password or ""):
        return None
    if known is None or not known.active:
        return None
    rehashed = await _hash(password) if _hasher.check_needs_rehash(known.password_hash) \
        else None
    async with core.db.unit_of_work() as s:
        user = await s.get(StaffUser, known.id)
        if user is None or not user.active or user.password_hash != known.password_hash:
            return None  # changed or deactivated meanwhile: the password checked is not its
        if rehashed:
            user.password_hash = rehashed
        user.last_login_at = core.now()
        return _info(user)


async def get_user(core: Core, user_id: int) -> StaffUserInfo | None:
    async with core.db.read() as s:
        user = await s.get(StaffUser, user_id)
        return _info(user) if user else None


async def list_users(core: Core, by: StaffUserInfo | None = None) -> list[StaffUserInfo]:
    """Every account, or those `by` (an administrator) manages: a city's administrator sees
    only the accounts of that city; an installation administrator, all."""
    q = select(StaffUser).order_by(StaffUser.username)
    if by is not None and not by.is_installation_admin:
        q = q.where(StaffUser.municipality == by.municipality)
    async with core.db.read() as s:
        return [_info(u) for u in (await s.execute(q)).scalars().all()]


async def set_user_active(core: Core, user_id: int, active: bool, by: StaffUserInfo) -> None:
    if user_id == by.id and not active:
        raise InvalidInput("Você não pode desativar a sua própria conta.")
    async with core.db.unit_of_work() as s:
        user = await s.get(StaffUser, user_id)
        if user is None or not by.manages(user.municipality):  # another city's: as missing
            raise NotFound("Usuário não encontrado.")
        if user.active and not active:
            user.session_version = (user.session_version or 0) + 1  # signed out everywhere
        user.active = active


async def end_sessions(core: Core, user_id: int) -> None:
    """Log out: every panel session of this user issued so far is refused from now on."""
    async with core.db.unit_of_work() as s:
        user = await s.get(StaffUser, user_id)
        if user is not None:
            user.session_version = (user.session_version or 0) + 1


async def change_password(core: Core, user_id: int, current: str, new: str,
                          repeated: str) -> StaffUserInfo:
    """A user's own new password (the current one must be right); every other session of
    the user ends (the returned info carries the new session version)."""
    if len(new or "") < MIN_PASSWORD:
        raise InvalidInput(f"A nova senha precisa ter pelo menos {MIN_PASSWORD} caracteres.",
                           "new")
    if new != repeated:
        raise InvalidInput("A repetição não confere com a nova senha.", "repeat")
    async with core.db.read() as s:
        known = await s.get(StaffUser, user_id)
        if known is None or not known.active:
            raise NotFound("Usuário não encontrado.")
        checked = known.password_hash
    if not await _verifies(checked, current or ""):
        raise InvalidInput("A senha atual está incorreta.", "current")
    new_hash = await _hash(new)
    async with core.db.unit_of_work() as s:
        user = await s.get(StaffUser, user_id)
        if user is None or not user.active:
            raise NotFound("Usuário não encontrado.")
        if user.password_hash != checked:  # changed meanwhile: the current one checked is not
            raise InvalidInput("A senha atual está incorreta.", "current")
        user.password_hash = new_hash
        user.session_version = (user.session_version or 0) + 1
        await s.flush()
        return _info(user)
