import { WeirError, maskedConfig } from '@weir/common';
import type { FastifyInstance } from 'fastify';
import { resource } from './http-resources.ts';
import type { RestContext } from './rest-context.ts';
import { RestErrorCode } from './rest-errors.ts';
import { clusterOverview, taskManagerDetails, taskManagerSummary } from './views/cluster-view.ts';

/** /config (the dashboard's, answered by every JobManager itself), /jobmanager/config (likewise), /overview, /taskmanagers, /taskmanagers/:taskmanagerid. */
export function clusterRoutes(app: FastifyInstance, ctx: RestContext): void {
  resource(app, '/config', {
    GET: () => ({
      'refresh-interval': ctx.refreshIntervalMs,
      'timezone-name': Intl.DateTimeFormat().resolvedOptions().timeZone,
      'timezone-offset': -new Date(ctx.clock.now()).getTimezoneOffset() * 60_000,
      'weir-version': ctx.version,
      features: { 'web-submit': false, 'web-cancel': true },
    }),
  }, { local: true });

  // Flink's shape, a list of {key, value} strings; a secret's value is ****** (GlobalConfiguration.isSensitive).
  resource(app, '/jobmanager/config', {
    GET: () => Object.entries(maskedConfig(ctx.configuration)).map(([key, value]) => ({ key, value: String(value) })),
  }, { local: true });

  resource(app, '/overview', {
    GET: () => clusterOverview(ctx.taskManagers.connected(), ctx.slotPool, ctx.dispatcher.list(), ctx.version, ctx.leader()),
  });

  resource(app, '/taskmanagers', {
    GET: () => ({ taskmanagers: ctx.taskManagers.connected().map((tm) => taskManagerSummary(tm, ctx.slotPool, ctx.metrics)) }),
  });

  resource(app, '/taskmanagers/:taskmanagerid', {
    GET: (request) => {
      const { taskmanagerid } = request.params as { taskmanagerid: string };
      const tm = ctx.taskManagers.connected().find((candidate) => candidate.id === taskmanagerid);
      if (tm === undefined) {
        throw new WeirError(RestErrorCode.TASK_MANAGER_NOT_FOUND, `no TaskManager with ID '${taskmanagerid}' is registered; GET /taskmanagers lists those that are`);
      }
      return taskManagerDetails(tm, ctx.slotPool, ctx.metrics);
    },
  });
}
