// Page cleaning settings that let dirty pages from bulk inserts pile up in the buffer pool.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import { dbCfgParameters } from './support/targets';

const PageCleaningRule: Rule = {
  meta: {
    id: 'page-cleaning',
    description: 'CHNGPGS_THRESH set high or NUM_IOCLEANERS 0 where the workload inserts',
    defaultSeverity: 'information',
    reads: { statements: ['updateDbCfg'] },
    dialects: ['luw'],
    evidence: ['Db2 INSERT tips, test 7', 'Db2 INSERT tips, test 8', 'Db2 INSERT tips, Appendix B 13'],
    defaultOptions: { maxChngpgsThresh: 30 },
    messages: {
      threshold:
        'CHNGPGS_THRESH {value} delays page cleaning for inserts. Page cleaners start only once {value}% of the buffer pool is dirty, so pages filled by inserts pile up and later inserts (or the commit, under NOT LOGGED INITIALLY) wait for synchronous writes. Db2 INSERT tips advises going as low as 5 for bulk inserts; in test 8, CHNGPGS_THRESH 5 cut a NOT LOGGED INITIALLY INSERT … SELECT of 100,000 rows from 16.4 s (test 7) to 11.8 s. Use a value of {max} or below.',
      noCleaners:
        'NUM_IOCLEANERS 0 turns asynchronous page cleaning off. Every page that inserts dirty is written by the inserting agent itself when it needs a free buffer slot. Db2 INSERT tips advises at least one cleaner per physical disk (Appendix B, item 13), or AUTOMATIC.',
    },
  },
  check({ file, schema, options, report }) {
    if (!schema.hasInsertWorkload()) return;
    const max = Number(options.maxChngpgsThresh);
    for (const stmt of statementsOf(file, 'updateDbCfg')) {
      for (const p of dbCfgParameters(stmt, 'CHNGPGS_THRESH')) {
        if (p.numericValue !== undefined && p.numericValue > max) report({ messageId: 'threshold', data: { value: p.value, max }, stmt, span: p.span });
      }
      for (const p of dbCfgParameters(stmt, 'NUM_IOCLEANERS')) {
        if (p.numericValue === 0) report({ messageId: 'noCleaners', stmt, span: p.span });
      }
    }
  },
};

export default PageCleaningRule;
