/** jsdom lacks TextEncoder/TextDecoder, which the address libraries use when they load. */
import { TextEncoder, TextDecoder } from 'node:util';

Object.assign(globalThis, { TextEncoder, TextDecoder });
