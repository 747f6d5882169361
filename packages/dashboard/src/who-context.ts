import { createContext } from 'preact';
import type { WhoAmI } from './permissions.ts';

/** The signed-in user (GET /auth/whoami), for the pages to show only the actions its role may take. */
export const Who = createContext<WhoAmI>({ authentication: false, name: 'anonymous', role: 'admin', via: 'anonymous', principal: 'anonymous:anonymous' });
