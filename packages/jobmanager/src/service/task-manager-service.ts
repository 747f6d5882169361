import { WeirError, type Logger } from '@weir/common';
import { toServiceError, type TaskManagerServiceHandlers, type grpc, type JobManagerMessage, type TaskManagerMessage__Output } from '@weir/rpc';
import type { BlobStore } from '../blob/blob-store.ts';
import { HaErrorCode } from '@weir/ha';
import { JobManagerErrorCode } from '../errors.ts';
import { checkBundleHash } from './request-checks.ts';
import type { TaskManagerConnection } from '../registry/task-manager-connection.ts';
import type { TaskManagerRegistry } from '../registry/task-manager-registry.ts';
import type { TaskManagerSession } from '../registry/task-manager-session.ts';

type ConnectCall = grpc.ServerDuplexStream<TaskManagerMessage__Output, JobManagerMessage>;

/** The TaskManagerService TaskManagers call: the Connect control stream and FetchBundle. */
export function taskManagerServiceHandlers(registry: TaskManagerRegistry, blobStore: BlobStore, logger: Logger, epoch = 0): TaskManagerServiceHandlers {
  return {
    Connect(call) {
      const connection = connectionOf(call, epoch);
      let session: TaskManagerSession | undefined;
      call.on('data', (message: TaskManagerMessage__Output) => {
        if (session !== undefined) {
          session.received(message);
          return;
        }
        if (message.kind !== 'register' || !message.register) {
          connection.close(
            new WeirError(
              JobManagerErrorCode.REGISTRATION_EXPECTED,
              `the first message on Connect must be 'register', got '${message.kind ?? 'an empty message'}'; a TaskManager registers before anything else`,
            ),
          );
          return;
        }
        if (message.register.leaderEpoch > epoch) {
          connection.close(
            new WeirError(
              HaErrorCode.NOT_LEADER,
              `this JobManager leads with epoch ${epoch}, but the TaskManager knows a newer leader (epoch ${message.register.leaderEpoch}); register with that one`,
            ),
          );
          return;
        }
        try {
          session = registry.register(message.register, connection);
        } catch (err) {
          logger.warn({ err }, 'TaskManager registration refused');
          connection.close(err as WeirError);
        }
      });
      let ended = false;
      const onEnd = () => {
        if (ended) return;
        ended = true;
        if (session !== undefined) session.closed();
        else connection.close();
      };
      call.on('end', onEnd);
      call.on('cancelled', onEnd);
      call.on('error', onEnd);
      call.on('close', onEnd);
    },

    FetchBundle(call, callback) {
      try {
        checkBundleHash(call.request.bundleHash);
        callback(null, { bundle: blobStore.get(call.request.bundleHash) });
      } catch (err) {
        callback(toServiceError(err));
      }
    },
  };
}

/** Every message carries the leader epoch, so a TaskManager can refuse a deposed leader's. */
function connectionOf(call: ConnectCall, epoch: number): TaskManagerConnection {
  let closed = false;
  return {
    send(message) {
      if (!closed) call.write({ ...message, leaderEpoch: epoch });
    },
    close(error) {
      if (closed) return;
      closed = true;
      // An 'error' event is how grpc-js ends a server stream with a status.
      if (error !== undefined) call.emit('error', toServiceError(error));
      else call.end();
    },
  };
}
