"""E-mail for people without Telegram: the e-mail outbox, the owners' addresses left on the web
owner page, and the stops (core.storage.models_email).

Revision ID: 0018_email
Revises: 0016_numbers
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0018_email'
down_revision: Union[str, Sequence[str], None] = '0016_numbers'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

UNDELIVERED = sa.text("status IN ('pending', 'sending')")


def upgrade() -> None:
    op.create_table(
        'email_outbox',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('case_id', sa.Integer(), nullable=True),
        sa.Column('address', sa.String(length=254), nullable=False),
        sa.Column('role', sa.String(length=20), nullable=False),
        sa.Column('kind', sa.String(length=40), nullable=False),
        sa.Column('payload', sa.JSON(), nullable=False),
        sa.Column('dedupe_key', sa.String(length=200), nullable=False),
        sa.Column('status', sa.String(length=10), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=True),
        sa.Column('failed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('claimed_by', sa.String(length=80), nullable=True),
        sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ondelete='CASCADE',
                                name=op.f('fk_email_outbox_case_id_cases')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_email_outbox')),
        sa.UniqueConstraint('dedupe_key', name=op.f('uq_email_outbox_dedupe_key')))
    op.create_index('ix_email_outbox_due', 'email_outbox', ['status', 'next_attempt_at'])
    op.create_index('ix_email_outbox_address_undelivered', 'email_outbox', ['address', 'id'],
                    sqlite_where=UNDELIVERED, postgresql_where=UNDELIVERED)
    op.create_table(
        'owner_emails',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('case_id', sa.Integer(), nullable=False),
        sa.Column('address', sa.String(length=254), nullable=False),
        sa.Column('consent', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('retain_until', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ondelete='CASCADE',
                                name=op.f('fk_owner_emails_case_id_cases')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_owner_emails')),
        sa.UniqueConstraint('case_id', 'address', name=op.f('uq_owner_emails_case_id_address')))
    op.create_table(
        'email_stops',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('case_id', sa.Integer(), nullable=False),
        sa.Column('address_hash', sa.String(length=64), nullable=False),
        sa.Column('stopped_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ondelete='CASCADE',
                                name=op.f('fk_email_stops_case_id_cases')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_email_stops')),
        sa.UniqueConstraint('case_id', 'address_hash',
                            name=op.f('uq_email_stops_case_id_address_hash')))


def downgrade() -> None:
    op.drop_table('email_stops')
    op.drop_table('owner_emails')
    op.drop_index('ix_email_outbox_address_undelivered', table_name='email_outbox')
    op.drop_index('ix_email_outbox_due', table_name='email_outbox')
    op.drop_table('email_outbox')
