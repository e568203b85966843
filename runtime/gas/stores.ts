// PropertiesService, CacheService and LockService as thin proxies over the host's stores.
import { call, execInfo, getBridge, GasError } from './bridge.js';

type StoreName = 'script' | 'user' | 'document';

class Properties {
  constructor(private readonly store: StoreName) {}
  getProperty(key: string): string | null {
    return call('props.get', { store: this.store, key: String(key) });
  }
  getProperties(): Record<string, string> {
    return call('props.all', { store: this.store });
  }
  getKeys(): string[] {
    return Object.keys(this.getProperties());
  }
  setProperty(key: string, value: string): Properties {
    call('props.set', { store: this.store, entries: { [String(key)]: String(value) }, deleteAllOthers: false });
    return this;
  }
  setProperties(props: Record<string, string>, deleteAllOthers = false): Properties {
    const entries: Record<string, string> = {};
    for (const k of Object.keys(props)) entries[k] = String(props[k]);
    call('props.set', { store: this.store, entries, deleteAllOthers });
    return this;
  }
  deleteProperty(key: string): Properties {
    call('props.delete', { store: this.store, key: String(key) });
    return this;
  }
  deleteAllProperties(): Properties {
    call('props.clear', { store: this.store });
    return this;
  }
}

export const PropertiesService = {
  getScriptProperties: () => {
    getBridge().check();
    return new Properties('script');
  },
  getUserProperties: () => {
    getBridge().check();
    return new Properties('user');
  },
  getDocumentProperties: () => {
    getBridge().check();
    return new Properties('document');
  },
};

class Cache {
  constructor(private readonly store: StoreName) {}
  get(key: string): string | null {
    return call('cache.get', { store: this.store, keys: [String(key)] })[key] ?? null;
  }
  getAll(keys: string[]): Record<string, string> {
    return call('cache.get', { store: this.store, keys: keys.map(String) });
  }
  put(key: string, value: string, expirationInSeconds?: number): void {
    call('cache.put', { store: this.store, entries: { [String(key)]: String(value) }, ttl: expirationInSeconds });
  }
  putAll(values: Record<string, string>, expirationInSeconds?: number): void {
    call('cache.put', { store: this.store, entries: values, ttl: expirationInSeconds });
  }
  remove(key: string): void {
    call('cache.remove', { store: this.store, keys: [String(key)] });
  }
  removeAll(keys: string[]): void {
    call('cache.remove', { store: this.store, keys: keys.map(String) });
  }
}

export const CacheService = {
  getScriptCache: () => {
    getBridge().check();
    return new Cache('script');
  },
  getUserCache: () => {
    getBridge().check();
    return new Cache('user');
  },
  getDocumentCache: () => {
    getBridge().check();
    return execInfo().kind === 'webapp' ? null : new Cache('document');
  },
};

class Lock {
  private held = false;
  constructor(private readonly scope: StoreName) {}
  tryLock(timeoutInMillis: number): boolean {
    this.held = call('lock.acquire', { scope: this.scope, timeout: Number(timeoutInMillis) || 0 });
    return this.held;
  }
  waitLock(timeoutInMillis: number): void {
    if (!this.tryLock(timeoutInMillis))
      throw new GasError('Lock timeout: another process was holding the lock for too long.');
  }
  releaseLock(): void {
    call('lock.release', { scope: this.scope });
    this.held = false;
  }
  hasLock(): boolean {
    getBridge().check();
    return this.held;
  }
}

export const LockService = {
  getScriptLock: () => {
    getBridge().check();
    return new Lock('script');
  },
  getUserLock: () => {
    getBridge().check();
    return new Lock('user');
  },
  // Apps Script has no containing document for a web-app execution, so there is no document lock.
  getDocumentLock: () => {
    getBridge().check();
    return execInfo().kind === 'webapp' ? null : new Lock('document');
  },
};
