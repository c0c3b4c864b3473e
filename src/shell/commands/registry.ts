/**
 * Commands beyond the text tools, by where they run: node tools (after `ssh`) and the network
 * and DNS tools inside containers. Each entry is one file under commands/node or commands/pod.
 */
import type { CommandFn } from '../types.js';
import { HOST_TOOLS, NODE_COMMANDS } from './node/index.js';
import { CONTAINER_ONLY, POD_COMMANDS, SHELL_BUILTINS } from './pod/index.js';

export const nodeCommands: Record<string, CommandFn> = { ...NODE_COMMANDS };
export const podCommands: Record<string, CommandFn> = { ...POD_COMMANDS };
export { CONTAINER_ONLY, HOST_TOOLS, SHELL_BUILTINS };
