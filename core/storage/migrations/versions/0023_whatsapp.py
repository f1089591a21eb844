"""The WhatsApp face: a person may be known by a WhatsApp id (`persons.whatsapp_id`, their
number: personal data), each WhatsApp chat keeps its conversation and the hour of the
person's last message (the 24 hours in which a free-form message may go), each message id
received is taken once (`whatsapp_seen`), and the outbox knows the channel of each message
(`outbox.channel`, 'telegram' for every message queued before), its per-chat order kept per
channel.

Revision ID: 0023_whatsapp
Revises: 0022_closure_hours
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op


revision: str = '0023_whatsapp'
down_revision: Union[str, Sequence[str], None] = '0022_closure_hours'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

UNDELIVERED = sa.text("status IN ('pending', 'sending')")


def upgrade() -> None:
    # a plain ADD COLUMN and a unique index: SQLite keeps the table (rows other tables refer
    # to stay where they are; a table rebuilt would trip their foreign keys)
    op.add_column('persons', sa.Column('whatsapp_id', sa.String(20), nullable=True))
    op.create_index('ix_persons_whatsapp_id', 'persons', ['whatsapp_id'], unique=True)
    op.create_table(
        'whatsapp_chats',
        sa.Column('wa_id', sa.String(20), primary_key=True),
        sa.Column('state', sa.String(60), nullable=False),
        sa.Column('draft', sa.JSON(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('last_inbound_at', sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        'whatsapp_seen',
        sa.Column('message_id', sa.String(200), primary_key=True),
        sa.Column('seen_at', sa.DateTime(timezone=True), nullable=False))
    op.create_index('ix_whatsapp_seen_seen_at', 'whatsapp_seen', ['seen_at'])
    op.add_column('outbox', sa.Column('channel', sa.String(10), nullable=False,
                                      server_default='telegram'))
    op.drop_index('ix_outbox_chat_undelivered', table_name='outbox')
    op.create_index('ix_outbox_chat_undelivered', 'outbox', ['channel', 'chat_id', 'id'],
                    sqlite_where=UNDELIVERED, postgresql_where=UNDELIVERED)


def downgrade() -> None:
    op.drop_index('ix_outbox_chat_undelivered', table_name='outbox')
    op.execute("DELETE FROM outbox WHERE channel <> 'telegram'")
    with op.batch_alter_table('outbox') as batch:
        batch.drop_column('channel')
    op.create_index('ix_outbox_chat_undelivered', 'outbox', ['chat_id', 'id'],
                    sqlite_where=UNDELIVERED, postgresql_where=UNDELIVERED)
    op.drop_index('ix_whatsapp_seen_seen_at', table_name='whatsapp_seen')
    op.drop_table('whatsapp_seen')
    op.drop_table('whatsapp_chats')
    op.drop_index('ix_persons_whatsapp_id', table_name='persons')
    op.drop_column('persons', 'whatsapp_id')  # SQLite ≥ 3.35 drops it in place
