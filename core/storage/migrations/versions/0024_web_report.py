"""The web report: each visitor's report in progress (`web_drafts`, kept by the hash of the
browser's random token), and the e-mail addresses web reporters gave, waiting for their
confirmation link (`email_confirmations`).

Revision ID: 0024_web_report
Revises: 0023_whatsapp
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op


revision: str = '0024_web_report'
down_revision: Union[str, Sequence[str], None] = '0023_whatsapp'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'web_drafts',
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('state', sa.String(length=60), nullable=False),
        sa.Column('draft', sa.JSON(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('token_hash', name=op.f('pk_web_drafts')))
    op.create_index(op.f('ix_web_drafts_updated_at'), 'web_drafts', ['updated_at'])
    op.create_table(
        'email_confirmations',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('case_id', sa.Integer(), nullable=False),
        sa.Column('address', sa.String(length=254), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ondelete='CASCADE',
                                name=op.f('fk_email_confirmations_case_id_cases')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_email_confirmations')),
        sa.UniqueConstraint('token_hash', name=op.f('uq_email_confirmations_token_hash')))


def downgrade() -> None:
    op.drop_table('email_confirmations')
    op.drop_index(op.f('ix_web_drafts_updated_at'), table_name='web_drafts')
    op.drop_table('web_drafts')
