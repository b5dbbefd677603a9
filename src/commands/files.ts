import type { Services } from '../services/services';
import type { CommandTable } from './index';

// Placeholder: these commands are being written.
export function fileCommands(_s: Services): CommandTable {
  return {};
}
