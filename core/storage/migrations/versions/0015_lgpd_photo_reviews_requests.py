"""LGPD: staff review of each photo's public copy (photos are public only once approved) and
the data subjects' requests with their answers (core.storage.models_lgpd).

Revision ID: 0015_lgpd
Revises: 0014_dayflow_contact_reporters
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0015_lgpd'
down_revision: Union[str, Sequence[str], None] = '0014_dayflow_contact_reporters'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'photo_reviews',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('evidence_id', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=12), nullable=False),
        sa.Column('boxes', sa.JSON(), nullable=False),
        sa.Column('reviewed_by', sa.String(length=80), nullable=False),
        sa.Column('reviewed_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['evidence_id'], ['evidence.id'], ondelete='CASCADE',
                                name=op.f('fk_photo_reviews_evidence_id_evidence')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_photo_reviews')),
        sa.UniqueConstraint('evidence_id', name=op.f('uq_photo_reviews_evidence_id')))
    op.create_table(
        'data_requests',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('telegram_id', sa.BigInteger(), nullable=False),
        sa.Column('kind', sa.String(length=12), nullable=False),
        sa.Column('status', sa.String(length=12), nullable=False),
        sa.Column('requested_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('answer', sa.Text(), nullable=False),
        sa.Column('details', sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_data_requests')))
    op.create_index(op.f('ix_data_requests_requested_at'), 'data_requests', ['requested_at'])
    op.create_index(op.f('ix_data_requests_telegram_id'), 'data_requests', ['telegram_id'])


def downgrade() -> None:
    op.drop_index(op.f('ix_data_requests_telegram_id'), table_name='data_requests')
    op.drop_index(op.f('ix_data_requests_requested_at'), table_name='data_requests')
    op.drop_table('data_requests')
    op.drop_table('photo_reviews')
