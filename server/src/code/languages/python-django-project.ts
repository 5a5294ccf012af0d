// What shows that a Django project talks to Db2, for the project evidence (cli/project-evidence.ts djangoDb2Folders)
// and the Python front end (python-django.ts): IBM's Django backend for Db2, ibm_db_django, named as a database's
// ENGINE in the project's settings (`DATABASES = {'default': {'ENGINE': 'ibm_db_django', …}}` in settings.py or a
// module of a settings/ package, `DB_ENGINE=ibm_db_django` in a .env file). Django talks to many databases and a
// model call names none: without that evidence a Django file stays unread.

import type { DjangoProject } from '../../code-model/types';

export type { DjangoProject };

/** ibm_db_django as a database's ENGINE: a quoted name (a settings dict), or a variable's value in a .env file. */
const DJANGO_DB2_ENGINE = /(["'])ibm_db_django\1|^[ \t]{0,40}(?:export[ \t]{1,40})?\w{0,60}ENGINE\w{0,20}[ \t]{0,40}=[ \t]{0,40}["']?ibm_db_django\b/m;
/** The default database's entry of DATABASES (its dict's text, when it nests no other dict). */
const DEFAULT_DATABASE = /["']default["'][ \t]{0,40}:[ \t\r\n]{0,200}\{([^{}]{0,4000})\}/;
/** `'ATOMIC_REQUESTS': True` in a DATABASES entry (or ATOMIC_REQUESTS=True in .env). */
const ATOMIC_REQUESTS = /["']?ATOMIC_REQUESTS["']?[ \t]{0,40}[:=][ \t]{0,40}["']?(?:True|true|1)\b/;

/** Why a settings or .env file shows Django on Db2 (`name`: the file's name), with ATOMIC_REQUESTS; else undefined. */
export function djangoDb2Evidence(name: string, text: string): DjangoProject | undefined {
  if (!text.includes('ibm_db_django')) return undefined;
  const engine = DJANGO_DB2_ENGINE.exec(text);
  if (!engine) return undefined;
  // Db2 as another alias than the default database (`'legacy': {'ENGINE': 'ibm_db_django'}`): the models' inserts go
  // to the default one, unless routed (not read).
  const defaultEntry = DEFAULT_DATABASE.exec(text)?.[1];
  if (defaultEntry !== undefined && /ENGINE/.test(defaultEntry) && !defaultEntry.includes('ibm_db_django')) return undefined;
  const why = `ENGINE ibm_db_django in ${name}`;
  return ATOMIC_REQUESTS.test(text) ? { why, atomicRequests: true } : { why };
}

/** Files that may hold a Django project's settings: settings.py, *_settings.py, a module of a settings/ package, .env. */
export const DJANGO_SETTINGS_FILE = /^(?:[\w-]*settings\.py|\.env(?:\.[\w.-]+)?|[\w.-]+\.env)$/i;

/**
 * A Python file that uses Django's ORM: it imports django, or it calls a manager (`Order.objects.create(…)`) of
 * classes imported from a models module (`from .models import Order`, `from shop.models import Order`).
 */
export function usesDjango(text: string): boolean {
  if (/^[ \t]*(?:from|import)[ \t]+django\b/m.test(text)) return true;
  return /\.objects\s*\.\s*\w+\s*\(/.test(text) && /^[ \t]*from[ \t]+[\w.]*\bmodels[ \t]+import\b/m.test(text);
}
