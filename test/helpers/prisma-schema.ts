// A small reader of prisma/schema.prisma, enough to derive what the migrated database must hold:
// tables, columns with their PostgreSQL types and nullability, unique indexes and foreign keys.
import { readFileSync } from 'node:fs';

export interface ExpectedColumn {
  name: string;
  /** information_schema data_type, or the enum's name for user-defined types. */
  type: string;
  maxLength: number | null;
  nullable: boolean;
}

export interface ExpectedTable {
  model: string;
  table: string;
  columns: ExpectedColumn[];
  primaryKey: string[];
  uniques: string[][];
  indexes: string[][];
  foreignKeys: { columns: string[]; references: string; onDelete: string }[];
}

const SCALAR_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Boolean: 'boolean',
  DateTime: 'timestamp without time zone',
  Json: 'jsonb',
  Decimal: 'numeric',
};

const NATIVE_TYPES: Record<string, string> = {
  VarChar: 'character varying',
  Char: 'character',
  Text: 'text',
  Timestamptz: 'timestamp with time zone',
  Timestamp: 'timestamp without time zone',
  Json: 'json',
  JsonB: 'jsonb',
  Uuid: 'uuid',
};

const listOf = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim().replace(/\(.*$/, ''))
    .filter(Boolean);

export function readPrismaSchema(file: string): ExpectedTable[] {
  const source = readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '');
  const enums = new Set([...source.matchAll(/^enum\s+(\w+)\s*\{/gm)].map((match) => match[1]!));
  const models = [...source.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)];
  const modelNames = new Set(models.map((match) => match[1]!));
  const tableOf = new Map<string, string>();
  for (const [, name, body] of models) tableOf.set(name!, /@@map\("([^"]+)"\)/.exec(body!)?.[1] ?? name!);

  return models.map(([, model, body]) => {
    const table: ExpectedTable = {
      model: model!,
      table: tableOf.get(model!)!,
      columns: [],
      primaryKey: [],
      uniques: [],
      indexes: [],
      foreignKeys: [],
    };
    for (const rawLine of body!.split('\n')) {
      const line = rawLine.trim();
      if (!line) continue;
      if (line.startsWith('@@')) {
        const fields = /\[([^\]]*)\]/.exec(line)?.[1];
        if (!fields) continue;
        if (line.startsWith('@@unique')) table.uniques.push(listOf(fields));
        else if (line.startsWith('@@index')) table.indexes.push(listOf(fields));
        else if (line.startsWith('@@id')) table.primaryKey = listOf(fields);
        continue;
      }
      const match = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!match) continue;
      const [, field, type, isList, optional, attributes] = match;
      if (modelNames.has(type!)) {
        const relation = /@relation\(([^)]*)\)/.exec(attributes!)?.[1];
        const fields = relation && /fields:\s*\[([^\]]*)\]/.exec(relation)?.[1];
        if (fields) {
          table.foreignKeys.push({
            columns: listOf(fields),
            references: tableOf.get(type!)!,
            onDelete: (/onDelete:\s*(\w+)/.exec(relation)?.[1] ?? 'Restrict').replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase(),
          });
        }
        continue;
      }
      if (isList) throw new Error(`scalar lists are not supported by this reader (${model}.${field})`);
      const column = /@map\("([^"]+)"\)/.exec(attributes!)?.[1] ?? field!;
      const native = /@db\.(\w+)(?:\((\d+)\))?/.exec(attributes!);
      const pgType = enums.has(type!)
        ? type!
        : native
          ? NATIVE_TYPES[native[1]!] ?? native[1]!.toLowerCase()
          : SCALAR_TYPES[type!] ?? type!;
      const maxLength = native && ['VarChar', 'Char'].includes(native[1]!) && native[2] ? Number(native[2]) : null;
      table.columns.push({ name: column, type: pgType, maxLength, nullable: Boolean(optional) });
      if (/@id\b/.test(attributes!)) table.primaryKey = [column];
      if (/@unique\b/.test(attributes!)) table.uniques.push([column]);
    }
    return table;
  });
}
