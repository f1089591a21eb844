"""Wrong invite-code attempts per Telegram account (inspector binding cool-down).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 10:00:00
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: Union[str, Sequence[str], None] = '0001'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('bind_attempts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('telegram_id', sa.BigInteger(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_bind_attempts'))
    )
    op.create_index('ix_bind_attempts_telegram_id_at', 'bind_attempts', ['telegram_id', 'at'],
                    unique=False)


def downgrade() -> None:
    op.drop_table('bind_attempts')
