"""Delivery: dead letters (when a message was given up), per-part progress of a message, the
sender holding a message's lease, the person who blocked the bot, and the index that keeps
each chat's messages in order.

Revision ID: 0007
Revises: 0006
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: Union[str, Sequence[str], None] = '0006'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

UNDELIVERED = "status IN ('pending', 'sending')"


def upgrade() -> None:
    with op.batch_alter_table('outbox') as batch:
        batch.add_column(sa.Column('progress', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('failed_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('claimed_by', sa.String(length=80), nullable=True))
    op.create_index('ix_outbox_chat_undelivered', 'outbox', ['chat_id', 'id'], unique=False,
                    sqlite_where=sa.text(UNDELIVERED), postgresql_where=sa.text(UNDELIVERED))
    with op.batch_alter_table('persons') as batch:
        batch.add_column(sa.Column('blocked_bot_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('persons') as batch:
        batch.drop_column('blocked_bot_at')
    op.drop_index('ix_outbox_chat_undelivered', table_name='outbox')
    with op.batch_alter_table('outbox') as batch:
        batch.drop_column('claimed_by')
        batch.drop_column('failed_at')
        batch.drop_column('progress')
