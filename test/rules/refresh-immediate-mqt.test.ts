import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'refresh-immediate-mqt';
const BASE = 'CREATE TABLE SALES (DAY DATE, AMOUNT INT);\n';
const MQT = ['CREATE TABLE DAILY AS (', '  SELECT DAY, SUM(AMOUNT) AS TOTAL, COUNT(*) AS N FROM SALES GROUP BY DAY', ')', '  DATA INITIALLY DEFERRED REFRESH IMMEDIATE;', ''].join('\n');

describe(`rule ${RULE}`, () => {
  it('reports the REFRESH IMMEDIATE clause of an MQT over an insert target', () => {
    expectFindings({ 'schema.sql': BASE + MQT, 'load.sql': 'INSERT INTO SALES VALUES (?, ?);\n' }, RULE, [
      { file: 'schema.sql', line: 5, column: 27, endLine: 5, endColumn: 44, severity: 'warning', message: /^MQT DAILY is REFRESH IMMEDIATE over insert target SALES\. .*Appendix B, item 22/ },
    ]);
  });

  it('ignores REFRESH DEFERRED MQTs and MQTs over tables that receive no inserts', () => {
    expectNoFindings({ 'schema.sql': BASE + MQT.replace('IMMEDIATE', 'DEFERRED'), 'load.sql': 'INSERT INTO SALES VALUES (?, ?);\n' }, RULE);
    expectNoFindings({ 'schema.sql': BASE + MQT }, RULE);
  });
});
