/** Versioned migrations, run at start. The list is static so it works from source, Jest and dist alike. */
import { Migrator, sql, type DatabaseIntrospector, type Kysely, type Migration } from 'kysely';
import { dialectOf } from './dialect';
import * as createAccess from './migrations/2026_11_22_0900_create_access';
import * as createMembersLedger from './migrations/2026_11_22_1000_create_members_ledger';
import * as managerVersion from './migrations/2026_11_23_0100_manager_version';
import * as createDepositsWithdrawals from './migrations/2026_11_23_0300_create_deposits_withdrawals';
import * as createPaymentsTransfers from './migrations/2026_11_23_1510_create_payments_transfers';
import * as memberListIndexes from './migrations/2026_11_23_1525_member_list_indexes';
import * as billListIndexes from './migrations/2026_11_23_1610_bill_list_indexes';
import * as memberCounts from './migrations/2026_11_23_1700_member_counts';
import * as memberPhoneCounts from './migrations/2026_11_24_0000_member_phone_counts';
import * as billStats from './migrations/2026_11_24_0100_bill_stats';
import * as withdrawalStats from './migrations/2026_11_24_0200_withdrawal_stats';
import * as depositStats from './migrations/2026_11_24_0300_deposit_stats';
import * as paymentStats from './migrations/2026_11_24_0400_payment_stats';
import * as transferStats from './migrations/2026_11_24_0500_transfer_stats';
import * as integerSums from './migrations/2026_11_24_1000_integer_sums';
import * as createPledges from './migrations/2026_11_25_0100_create_pledges';
import * as createSeedsMatches from './migrations/2026_11_25_0200_create_seeds_matches';
import * as createSettlementRuns from './migrations/2026_11_25_0300_create_settlement_runs';
import * as billMemberNoFk from './migrations/2026_11_25_0400_bill_member_no_fk';
import * as memberEconomyStats from './migrations/2026_11_25_0500_member_economy_stats';
import * as createUploads from './migrations/2026_11_26_0100_create_uploads';
import * as createMall from './migrations/2026_11_26_0200_create_mall';
import * as productNameTrigram from './migrations/2026_11_27_0100_product_name_trigram';
import * as createContent from './migrations/2026_11_27_0200_create_content';
import * as createTotp from './migrations/2026_11_28_0100_create_totp';
import * as orderBuyer from './migrations/2026_11_28_0200_order_buyer';
import * as catalogVersion from './migrations/2026_11_29_0100_catalog_version';

export const migrations: Record<string, Migration> = {
  '2026_11_22_0900_create_access': createAccess,
  '2026_11_22_1000_create_members_ledger': createMembersLedger,
  '2026_11_23_0100_manager_version': managerVersion,
  '2026_11_23_0300_create_deposits_withdrawals': createDepositsWithdrawals,
  '2026_11_23_1510_create_payments_transfers': createPaymentsTransfers,
  '2026_11_23_1525_member_list_indexes': memberListIndexes,
  '2026_11_23_1610_bill_list_indexes': billListIndexes,
  '2026_11_23_1700_member_counts': memberCounts,
  '2026_11_24_0000_member_phone_counts': memberPhoneCounts,
  '2026_11_24_0100_bill_stats': billStats,
  '2026_11_24_0200_withdrawal_stats': withdrawalStats,
  '2026_11_24_0300_deposit_stats': depositStats,
  '2026_11_24_0400_payment_stats': paymentStats,
  '2026_11_24_0500_transfer_stats': transferStats,
  '2026_11_24_1000_integer_sums': integerSums,
  '2026_11_25_0100_create_pledges': createPledges,
  '2026_11_25_0200_create_seeds_matches': createSeedsMatches,
  '2026_11_25_0300_create_settlement_runs': createSettlementRuns,
  '2026_11_25_0400_bill_member_no_fk': billMemberNoFk,
  '2026_11_25_0500_member_economy_stats': memberEconomyStats,
  '2026_11_26_0100_create_uploads': createUploads,
  '2026_11_26_0200_create_mall': createMall,
  '2026_11_27_0100_product_name_trigram': productNameTrigram,
  '2026_11_27_0200_create_content': createContent,
  '2026_11_28_0100_create_totp': createTotp,
  '2026_11_28_0200_order_buyer': orderBuyer,
  '2026_11_29_0100_catalog_version': catalogVersion,
};

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // On PostgreSQL name the schema of the migration tables: left alone, Kysely looks for them in every
  // schema, finds another schema's (a bench or test schema in the same database) and skips making its own.
  const migrationTableSchema =
    dialectOf(db) === 'postgres'
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
      : undefined;
  const migrator = new Migrator({
    db: migrationTableSchema ? withSchemaScopedIntrospection(db, migrationTableSchema) : db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? error}`);
  }
}

/**
 * The Migrator asks the database whether its schema and its two tables exist. Kysely's PostgreSQL
 * introspector answers by reading every table of every schema with `pg_get_serial_sequence`, which fails
 * with 'schema "…" does not exist' when another schema is dropped meanwhile (tests and bench sets drop
 * theirs while others migrate: measured, ~1 in 10 calls under such churn). This one reads only the
 * catalog rows of the migration schema, with no function that resolves names.
 */
function withSchemaScopedIntrospection(db: Kysely<any>, schema: string): Kysely<any> {
  const introspection: DatabaseIntrospector = {
    async getSchemas() {
      const r = await sql<{ name: string }>`select nspname as name from pg_namespace where nspname = ${schema}`.execute(
        db,
      );
      return r.rows;
    },
    async getTables() {
      const r = await sql<{ name: string }>`select c.relname as name from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p')`.execute(db);
      return r.rows.map(({ name }) => ({ name, schema, isView: false, columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return introspection;
      const value = Reflect.get(target, prop, target);
      // Kysely's methods reach private fields: they must run on the instance itself, not the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
