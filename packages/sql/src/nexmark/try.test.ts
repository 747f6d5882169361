import { it } from 'vitest';
import { StreamExecutionEnvironment } from '@weir/api';
import { StreamTableEnvironment } from '../table-environment.ts';
import { NEXMARK_QUERIES, NEXMARK_VIEWS, nexmarkDdl } from './queries.ts';
it('try', () => {
  for (const [name, stmts] of Object.entries(NEXMARK_QUERIES)) {
    const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
    tEnv.executeSql(nexmarkDdl({ 'events.num': '1000' }));
    for (const v of NEXMARK_VIEWS) tEnv.executeSql(v);
    try { for (const s of stmts) tEnv.executeSql(s); console.log(name, 'OK'); } catch (e) { console.log(name, 'FAIL', (e as Error).message.slice(0, 300)); }
  }
});
