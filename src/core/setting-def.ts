// One Settings row's definition: its key, its default as the tab stores it, its type and what it is for.
export const SETTING_TYPES = ['number', 'integer', 'boolean', 'string', 'json'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];

// What each scalar tag parses to; a 'json' row's type is its default's (see `shape`).
interface TagValue {
  number: number;
  integer: number;
  boolean: boolean;
  string: string;
}

// Type-only key carrying a row's parsed value type, so Settings.get can be typed by key; never set at runtime.
declare const VALUE: unique symbol;

export interface SettingDef<K extends string = string, V = unknown> {
  key: K;
  value: string;
  type: SettingType;
  description: string;
  // The key this setting had before it was renamed: a stored row under that key is read as this one.
  formerly?: string;
  readonly [VALUE]?: V;
}

// The parsed value type a definition declares.
export type ValueOfDef<D> = D extends SettingDef<string, infer V> ? V : never;

export const settingDef = <K extends string, T extends SettingType, V>(
  key: K,
  value: V,
  type: T,
  description: string,
): SettingDef<K, T extends keyof TagValue ? TagValue[T] : V> => ({
  key,
  value: typeof value === 'object' ? JSON.stringify(value) : String(value),
  type,
  description,
});

// Names the type a 'json' row's value parses to, at its definition (a checked annotation, not a cast): the
// parser only checks the JSON kind, so this is the shape the default has and the tab is documented to hold.
export const shape = <V>(value: V): V => value;

// What a module that settings.ts is built from reads of Settings: the rows it names, with the types it expects.
// The provider rows come from the vendor modules and the model table, and the KPI memory an agent request carries
// reaches outcomes.ts, so these modules cannot import Settings without a cycle. Settings is one of these readers: a
// caller passes it, and tsc checks each named key and its type against the table there.
export interface ReadsSetting<K extends string, V> {
  get(key: K): V;
}
