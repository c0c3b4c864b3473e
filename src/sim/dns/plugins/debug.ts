/**
 * debug (coredns v1.13.1 plugin/debug/debug.go): sets the server block's Debug flag (panics are
 * not recovered, `[DEBUG]` log lines are printed). It adds no handler to the chain. The simulated
 * plugins neither panic nor write `[DEBUG]` lines, so the flag only records that debug is on.
 */
import type { PluginDef } from '../plugin.js';

export const debugPlugin: PluginDef = {
  name: 'debug',
  setup(c) {
    while (c.next()) if (c.nextArg()) throw c.argErr();
    return { name: 'debug', debug: true };
  },
};
