"""Many municipalities, one installation: the `municipalities` table, and the city of each
staff account, inspector and invite.

A database in use is one city's: each slug its data already carries (cases, tariffs, closures)
becomes a municipality record with its law's name, state and IBGE code, and every empty field
keeps the installation's settings, so nothing changes for it. Its inspectors, invites and
staff join that city; its administrators become the installation's (they see every city). A
fresh database gets its first record when the application starts (core.services.context).

Revision ID: 0019_municipalities
Revises: 0018_email
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0019_municipalities'
down_revision: Union[str, Sequence[str], None] = '0018_email'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'municipalities',
        sa.Column('slug', sa.String(length=60), nullable=False),
        sa.Column('law', sa.String(length=60), nullable=False),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('uf', sa.String(length=2), nullable=False),
        sa.Column('ibge_code', sa.String(length=7), nullable=False),
        sa.Column('boundary', sa.Text(), nullable=True),
        sa.Column('centre_lat', sa.Float(), nullable=True),
        sa.Column('centre_lon', sa.Float(), nullable=True),
        sa.Column('radius_m', sa.Float(), nullable=True),
        sa.Column('office_address', sa.String(length=300), nullable=False),
        sa.Column('office_phone', sa.String(length=60), nullable=False),
        sa.Column('office_hours', sa.String(length=200), nullable=False),
        sa.Column('office_lat', sa.Float(), nullable=True),
        sa.Column('office_lon', sa.Float(), nullable=True),
        sa.Column('depot_address', sa.String(length=300), nullable=False),
        sa.Column('depot_hours', sa.String(length=200), nullable=False),
        sa.Column('dpo_contact', sa.String(length=200), nullable=False),
        sa.Column('pix_key', sa.String(length=77), nullable=False),
        sa.Column('pix_merchant_name', sa.String(length=25), nullable=False),
        sa.Column('pix_merchant_city', sa.String(length=15), nullable=False),
        sa.Column('payment_guia_instructions', sa.Text(), nullable=False),
        sa.Column('open311_jurisdiction_id', sa.String(length=120), nullable=False),
        sa.Column('open311_key_sha256', sa.String(length=64), nullable=False),
        sa.Column('active', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('slug', name=op.f('pk_municipalities')),
    )
    with op.batch_alter_table('staff_users') as b:
        b.add_column(sa.Column('municipality', sa.String(length=60), nullable=True))
    with op.batch_alter_table('inspectors') as b:
        b.add_column(sa.Column('municipality', sa.String(length=60), nullable=False,
                               server_default=''))
    with op.batch_alter_table('invite_codes') as b:
        b.add_column(sa.Column('municipality', sa.String(length=60), nullable=False,
                               server_default=''))
    _adopt_the_city_in_use()


def _adopt_the_city_in_use() -> None:
    from datetime import datetime, timezone

    from core.laws import registry
    conn = op.get_bind()
    slugs: set[str] = set()
    for table in ("cases", "tariffs", "closures"):
        slugs |= {r[0] for r in conn.execute(sa.text(
            f"SELECT DISTINCT municipality FROM {table}"))}
    laws = registry()
    now = datetime.now(timezone.utc)
    table = sa.table('municipalities', *(sa.column(c) for c in (
        'slug', 'law', 'name', 'uf', 'ibge_code', 'office_address', 'office_phone',
        'office_hours', 'depot_address', 'depot_hours', 'dpo_contact', 'pix_key',
        'pix_merchant_name', 'pix_merchant_city', 'payment_guia_instructions',
        'open311_jurisdiction_id', 'open311_key_sha256', 'active', 'created_at')))
    rows = []
    for slug in sorted(slugs):
        law = laws.get(slug)
        rows.append({"slug": slug, "law": slug, "name": law.city if law else slug,
                     "uf": law.uf if law else "", "ibge_code": law.ibge_code if law else "",
                     "office_address": "", "office_phone": "", "office_hours": "",
                     "depot_address": "", "depot_hours": "", "dpo_contact": "", "pix_key": "",
                     "pix_merchant_name": "", "pix_merchant_city": "",
                     "payment_guia_instructions": "", "open311_jurisdiction_id": "",
                     "open311_key_sha256": "",
                     "active": True, "created_at": now})
    if rows:
        op.bulk_insert(table, rows)
    if len(slugs) == 1:
        (only,) = slugs
    else:
        from core.settings import Settings
        only = Settings().municipality
    params = {"slug": only}
    conn.execute(sa.text("UPDATE inspectors SET municipality = :slug"), params)
    conn.execute(sa.text("UPDATE invite_codes SET municipality = :slug"), params)
    conn.execute(sa.text("UPDATE staff_users SET municipality = :slug WHERE role <> 'admin'"),
                 params)


def downgrade() -> None:
    for table in ('invite_codes', 'inspectors', 'staff_users'):
        with op.batch_alter_table(table) as b:
            b.drop_column('municipality')
    op.drop_table('municipalities')
