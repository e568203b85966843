// One Settings row's definition: its key, its default as the tab stores it, its type and what it is for.
export type SettingType = 'number' | 'integer' | 'boolean' | 'string' | 'json';

export interface SettingDef {
  key: string;
  value: string;
  type: SettingType;
  description: string;
  // The key this setting had before it was renamed: a stored row under that key is read as this one.
  formerly?: string;
}

export const settingDef = (key: string, value: unknown, type: SettingType, description: string): SettingDef => ({
  key,
  value: typeof value === 'object' ? JSON.stringify(value) : String(value),
  type,
  description,
});
