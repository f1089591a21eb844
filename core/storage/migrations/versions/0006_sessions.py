"""Panel sessions that end: a per-user session version, signed into each session cookie and
checked on every request; logout, a password change and deactivation raise it, so every
cookie issued before (a copy included) is refused from then on.

Revision ID: 0006
Revises: 0005
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: Union[str, Sequence[str], None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.add_column('staff_users', sa.Column('session_version', sa.Integer(), nullable=False,
                                           server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('staff_users') as batch:
        batch.drop_column('session_version')
