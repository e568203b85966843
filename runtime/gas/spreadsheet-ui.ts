// SpreadsheetApp.getUi(): menus, sidebars, dialogs, alerts and prompts, recorded by the host.
import type { MenuItemWire } from '../service-calls.js';
import { call, enumOf, execInfo, GasError, requireScope, SCOPES } from './bridge.js';
import type { HtmlOutput } from './html.js';

const Button = enumOf(['CLOSE', 'OK', 'CANCEL', 'YES', 'NO']);
const ButtonSet = enumOf(['OK', 'OK_CANCEL', 'YES_NO', 'YES_NO_CANCEL']);

class Menu {
  private readonly items: MenuItemWire[] = [];
  constructor(private readonly caption: string) {}
  addItem(caption: string, functionName: string): Menu {
    this.items.push({ caption, fn: functionName });
    return this;
  }
  addSeparator(): Menu {
    this.items.push({ separator: true });
    return this;
  }
  addSubMenu(menu: Menu): Menu {
    this.items.push({ caption: menu.caption, submenu: menu.items });
    return this;
  }
  addToUi(): void {
    call('ui.menu', { caption: this.caption, items: this.items });
  }
}

export function ui() {
  const kind = execInfo().kind;
  if (kind === 'trigger' || kind === 'webapp')
    throw new GasError('Cannot call SpreadsheetApp.getUi() from this context.');
  requireScope('Ui', SCOPES.ui);
  return {
    Button,
    ButtonSet,
    createMenu: (caption: string) => new Menu(caption),
    createAddonMenu: () => new Menu('Add-on'),
    showSidebar(out: HtmlOutput): void {
      call('ui.sidebar', { title: out.getTitle(), html: out.getContent(), width: out.getWidth() });
    },
    showModalDialog(out: HtmlOutput, title: string): void {
      call('ui.dialog', { title, html: out.getContent(), modal: true, width: out.getWidth(), height: out.getHeight() });
    },
    showModelessDialog(out: HtmlOutput, title: string): void {
      call('ui.dialog', {
        title,
        html: out.getContent(),
        modal: false,
        width: out.getWidth(),
        height: out.getHeight(),
      });
    },
    alert(a: string, b?: string, c?: string): string {
      const [title, prompt, buttons] = b === undefined ? ['', a, 'OK'] : c === undefined ? ['', a, b] : [a, b, c];
      return call('ui.alert', { title, prompt, buttons });
    },
    prompt(a: string, b?: string, c?: string) {
      const [title, prompt, buttons] = b === undefined ? ['', a, 'OK'] : c === undefined ? ['', a, b] : [a, b, c];
      const r = call('ui.prompt', { title, prompt, buttons });
      return { getSelectedButton: () => r.button, getResponseText: () => r.text };
    },
  };
}
