import { SqlError, SqlErrorCode } from '../errors.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import { suggest } from '../validate/catalog.ts';
import { datagenFactory } from './datagen.ts';
import { checkMetadata, checkOptions, type TableFactory } from './factory.ts';
import { kafkaFactory, upsertKafkaFactory } from './kafka.ts';
import { filesystemFactory } from './filesystem.ts';
import { nexmarkFactory } from './nexmark.ts';
import { blackholeFactory, printFactory } from './print.ts';

const FACTORIES: ReadonlyMap<string, TableFactory> = new Map([datagenFactory, printFactory, blackholeFactory, filesystemFactory, kafkaFactory, upsertKafkaFactory, nexmarkFactory].map((f) => [f.identifier, f]));

/** The factory of a table's 'connector', its options checked, able to act as `role`. */
export function factoryOf(table: CatalogTable, role: 'source' | 'sink'): TableFactory {
  const identifier = table.options.connector;
  if (identifier === undefined) {
    throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}' has no 'connector' option; WITH ('connector' = '...') takes one of ${[...FACTORIES.keys()].join(', ')}`);
  }
  const factory = FACTORIES.get(identifier);
  if (factory === undefined) {
    throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': no connector '${identifier}'${suggest(identifier, [...FACTORIES.keys()])} (Weir's SQL has ${[...FACTORIES.keys()].join(', ')})`);
  }
  checkOptions(table, factory);
  if (table.partitionKeys !== undefined && !factory.partitioned) {
    throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `Table '${table.name}': connector '${identifier}' does not take PARTITIONED BY (in Weir's SQL only the filesystem connector's sink does)`);
  }
  if (role === 'source' && factory.createSource === undefined) throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': connector '${identifier}' can only be written to (INSERT INTO), not read`);
  if (role === 'sink' && factory.attachSink === undefined) throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': connector '${identifier}' can only be read, not written to`);
  checkMetadata(table, factory, role);
  return factory;
}

/** Whether a table's connector produces an upsert changelog (upsert-kafka), which its scan turns into a retract one. */
export function scanProducesUpserts(table: CatalogTable): boolean {
  return FACTORIES.get(table.options.connector ?? '')?.produces === 'upsert';
}
