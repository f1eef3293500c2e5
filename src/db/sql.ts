// The minimal SQL surface the migrator and health check need, over either engine.
export interface SqlSession {
  /** Runs one statement with parameters and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements (no parameters). */
  exec(script: string): Promise<void>;
}
