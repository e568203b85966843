// Who an execution is for, whom it runs as, and what Session shows of them (docs/runtime.md).
import crypto from 'node:crypto';
import type { ExecutionKind } from '../execution-types.js';

// An account that uses the spreadsheet besides its owner (an editor).
export interface RuntimeUser {
  email: string;
  // Told to the runtime: the user is in the owner's Workspace domain, so Google reveals their email to the script.
  sameDomain?: boolean;
}

export interface ExecutionUsers {
  // The account the execution is for: its quotas, user properties and the triggers it sees go by `effective`.
  user: string;
  // Whom the script runs as: the user, or the deployer of a web app that executes as its deployer.
  effective: string;
  // What Session.getActiveUser().getEmail() shows: '' when Google would not reveal it.
  revealed: string;
  // Session.getTemporaryActiveUserKey(): '' only when there is no user at all (an anonymous web-app visitor).
  activeUserKey: string;
}

export class Users {
  private readonly known = new Map<string, RuntimeUser>();

  constructor(
    readonly owner: string,
    list: readonly RuntimeUser[],
    // appsscript.json's webapp.executeAs is USER_ACCESSING (else the web app runs as its deployer, the owner).
    private readonly webAppRunsAsVisitor: boolean,
  ) {
    for (const u of list) this.known.set(u.email, u);
  }

  get(email: string): RuntimeUser | undefined {
    return this.known.get(email);
  }

  // The bound spreadsheet's editors besides its owner (Spreadsheet.getEditors()).
  list(): string[] {
    return [...this.known.keys()];
  }

  // Spreadsheet.addEditors() on the bound spreadsheet: each becomes one of its users (outside the owner's domain
  // unless a test says otherwise).
  add(emails: readonly string[], sameDomain = false): void {
    for (const email of emails)
      if (email !== this.owner && !this.known.has(email)) this.known.set(email, { email, sameDomain });
  }

  // The person who ran it or the trigger's owner (the owner unless told otherwise); nobody for an anonymous web-app
  // visitor. It runs as that account, except a web app deployed to execute as its deployer.
  forExecution(kind: ExecutionKind, requested?: string): ExecutionUsers {
    const user = requested ?? (kind === 'webapp' ? '' : this.owner);
    const effective = kind === 'webapp' && !this.webAppRunsAsVisitor ? this.owner : user;
    return {
      user,
      effective,
      revealed: this.revealed(kind, user),
      activeUserKey: user ? this.temporaryKey(user) : '',
    };
  }

  // Google reveals the active user only to the script's owner and to users of the owner's Workspace domain; the
  // pessimistic reading gives '' in every trigger execution, whoever owns the trigger.
  private revealed(kind: ExecutionKind, user: string): string {
    if (!user || kind === 'trigger') return '';
    return this.reveals(user) ? user : '';
  }

  // Whether Google would tell the script who this person is: the owner, or a user of the owner's domain. An edit
  // event's `e.user` follows the same rule ("if available, depending on a complex set of security restrictions").
  reveals(user: string): boolean {
    return user === this.owner || this.known.get(user)?.sameDomain === true;
  }

  // Opaque (no trace of the email), stable for one user of this script, different between users.
  temporaryKey(user: string): string {
    return crypto.createHash('sha256').update(`local-script-id\u0000${user}`).digest('base64url').slice(0, 43);
  }
}
