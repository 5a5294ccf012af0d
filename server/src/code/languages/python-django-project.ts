// What shows that a Django project talks to Db2, for the project evidence (cli/project-evidence.ts djangoDb2Folders)
// and the Python front end (python-django.ts): IBM's Django backend for Db2, ibm_db_django, named as a database's
// ENGINE in the project's settings (`DATABASES = {'default': {'ENGINE': 'ibm_db_django', …}}` in settings.py or a
// module of a settings/ package, `DB_ENGINE=ibm_db_django` in a .env file). Django talks to many databases and a
// model call names none: without that evidence a Django file stays unread.

import type { DjangoProject } from '../../code-model/types';

export type { DjangoProject };

/** ibm_db_django as a database's ENGINE: a quoted name (a settings dict), or a variable's value in a .env file. */
const DJANGO_DB2_ENGINE = /(["'])ibm_db_django\1|^[ \t]{0,40}(?:export[ \t]{1,40})?\w{0,60}ENGINE\w{0,20}[ \t]{0,40}=[ \t]{0,40}["']?ibm_db_django\b/gm;
/** `'ATOMIC_REQUESTS': True` in a DATABASES entry (or ATOMIC_REQUESTS=True in .env). */
const ATOMIC_REQUESTS = /["']?ATOMIC_REQUESTS["']?[ \t]{0,40}[:=][ \t]{0,40}["']?(?:True|true|1)\b/;
/** A dict entry's key opening a dict (`'default': {`, `"legacy": {`): a DATABASES alias. */
const ALIAS = /["']([\w-]{1,100})["'][ \t]{0,40}:[ \t\r\n]{0,200}\{/g;
/** A line that is a comment (Python's and .env's `#`): a setting left there commented out says nothing. */
const COMMENT_LINE = /^[ \t]*#[^\n]*/gm;

/**
 * Why a settings or .env file shows Django on Db2 (`name`: the file's name), with ATOMIC_REQUESTS; else undefined.
 * ibm_db_django must be the ENGINE of the default database (the alias whose dict holds it), or of no alias the text
 * shows (a .env value): as another alias (`'legacy': {'ENGINE': 'ibm_db_django'}` beside a PostgreSQL default) the
 * models' inserts go to the default database unless a router or .using() sends them (not read). Commented-out lines
 * are not read.
 */
export function djangoDb2Evidence(name: string, text: string): DjangoProject | undefined {
  if (!text.includes('ibm_db_django')) return undefined;
  const live = text.replace(COMMENT_LINE, '');
  for (const engine of live.matchAll(DJANGO_DB2_ENGINE)) {
    let alias: string | undefined;
    for (const m of live.slice(Math.max(0, engine.index - 4000), engine.index).matchAll(ALIAS)) if (m[1] !== 'OPTIONS' && m[1] !== 'TEST') alias = m[1];
    if (alias !== undefined && alias !== 'default') continue;
    const why = `ENGINE ibm_db_django in ${name}`;
    return ATOMIC_REQUESTS.test(live) ? { why, atomicRequests: true } : { why };
  }
  return undefined;
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
