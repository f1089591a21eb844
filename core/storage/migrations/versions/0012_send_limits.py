"""Telegram's limits shared by every bot worker: the bot's send slots and each chat's pace
(core.storage.send_limits).

Revision ID: 0012_send_limits
Revises: 0011
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0012_send_limits'
down_revision: Union[str, Sequence[str], None] = '0011'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Only the next second matters here: on PostgreSQL the tables are UNLOGGED (no WAL, so a
    # claim's commit waits for no disk; emptied after a crash, which frees every claim).
    unlogged = ['UNLOGGED'] if op.get_bind().dialect.name == 'postgresql' else []
    op.create_table(
        'send_slots',
        sa.Column('slot', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('busy_until', sa.Float(precision=53), nullable=False),
        sa.Column('holder', sa.String(length=120), nullable=True),
        sa.PrimaryKeyConstraint('slot', name=op.f('pk_send_slots')), prefixes=unlogged)
    op.create_table(
        'chat_pace',
        sa.Column('chat_id', sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column('busy_until', sa.Float(precision=53), nullable=False),
        sa.Column('holder', sa.String(length=120), nullable=True),
        sa.Column('tat', sa.Float(precision=53), server_default='0', nullable=False),
        sa.PrimaryKeyConstraint('chat_id', name=op.f('pk_chat_pace')), prefixes=unlogged)


def downgrade() -> None:
    op.drop_table('chat_pace')
    op.drop_table('send_slots')
