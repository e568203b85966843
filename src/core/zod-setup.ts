// zod's configuration, set before any schema is built: main.ts imports this module first.
import { config } from 'zod';

// Every execution loads the bundle into a fresh context and parses each schema a few times at most: zod's JIT, which
// compiles a parser per object schema with `new Function` on its first parse, costs more than it saves then.
// A schema reads the setting when it is built, so this has to run before the first one is.
config({ jitless: true });
