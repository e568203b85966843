// The shape of a tab definition: the single source for names, columns, formats, validation and protection.

export type ColumnType = 'id' | 'text' | 'json' | 'enum' | 'number' | 'integer' | 'boolean' | 'datetime' | 'date';

export interface ColumnSpec<K extends string = string> {
  key: K;
  type: ColumnType;
  width: number;
  values?: readonly string[];
  description: string;
}

type TabKind = 'log' | 'config' | 'data' | 'dashboard';

export interface TabSpec {
  key: string;
  name: string;
  nameJa: string;
  kind: TabKind;
  description: string;
  columns: readonly ColumnSpec[];
  frozenRows: number;
  // Log tabs are protected with a warning: people change state through the sidebar or the API.
  protected: boolean;
  retentionYears?: number;
  // Read through the configuration cache (src/store/store.ts); a person's edit of the tab invalidates it.
  cached?: boolean;
  // Audited tabs: every write records the row's digest under its key (the `key` column's value, with
  // `#part` appended when the `part` column is not 0), and verifyAudit checks each row against its latest record.
  audit?: { key: string; part?: string };
}

// Text-like columns are plain text ('@') so nothing a model or a person writes becomes a formula.
export function numberFormatOf(type: ColumnType): string {
  switch (type) {
    case 'id':
    case 'text':
    case 'json':
    case 'enum':
      return '@';
    case 'datetime':
      return 'yyyy-mm-dd hh:mm:ss';
    case 'date':
      return 'yyyy-mm-dd';
    case 'integer':
      return '0';
    case 'number':
      return '0.####';
    case 'boolean':
      return '';
  }
}

export function col<K extends string>(
  key: K,
  type: ColumnType,
  width: number,
  description: string,
  values?: readonly string[],
): ColumnSpec<K> {
  return values ? { key, type, width, description, values } : { key, type, width, description };
}
