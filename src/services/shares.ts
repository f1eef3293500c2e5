// Share links: a read-only link to one project's 3D model for people without an account. The link
// carries an unguessable token; only its digest is looked up, and every request reads the database,
// so a revoked or expired link stops working on every process at once.
import { hash, randomBytes } from 'node:crypto';
import { MESSAGES, notFound } from '../errors.js';
import type { SecretSealer } from '../lib/secret-sealer.js';
import { createId, foundOr404 } from '../lib/ids.js';
import type { Project } from '../repositories/projects.js';
import { ShareTargetMissingError, type SealedShare, type ShareRepository } from '../repositories/shares.js';
import type { ProjectService } from './projects.js';

/** url: the viewer link, <base>/viewer?share=<token>. */
export type Share = Pick<SealedShare, 'id' | 'projectId' | 'createdAt' | 'expiresAt'> & { url: string };

const TOKEN_BYTES = 32;
/** base64url of TOKEN_BYTES: anything else names no link, and costs no database work. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const DAY_MS = 86_400_000;

const digestToken = (token: string) => hash('sha256', token, 'hex');
// Domain-separated from the developer keys sealed with the same secret.
const sealContext = (shareId: string) => `share:${shareId}`;

export const viewerLink = (baseUrl: string, token: string) => `${baseUrl}/viewer?share=${token}`;

export function createShareService(shares: ShareRepository, projects: ProjectService, sealer: SecretSealer) {
  const toShare = (row: SealedShare, baseUrl: string): Share => ({
    id: row.id,
    projectId: row.projectId,
    url: viewerLink(baseUrl, sealer.open(row.sealedToken, sealContext(row.id))),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  });

  return {
    /** 404 for another account's project. `baseUrl`: PUBLIC_BASE_URL, or '' (a relative URL). */
    async create(userId: string, projectId: string, expiresInDays: number | undefined, baseUrl: string): Promise<Share> {
      const project = await projects.get(userId, projectId);
      const id = createId();
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      const createdAt = new Date();
      const expiresAt = expiresInDays === undefined ? null : new Date(createdAt.getTime() + expiresInDays * DAY_MS);
      try {
        const row = await shares.create({
          id,
          projectId: project.id,
          userId: project.userId,
          tokenDigest: digestToken(token),
          sealedToken: sealer.seal(token, sealContext(id)),
          createdAt,
          expiresAt,
        });
        return toShare(row, baseUrl);
      } catch (error) {
        if (error instanceof ShareTargetMissingError) throw notFound(MESSAGES.projectNotFound);
        throw error;
      }
    },

    async list(userId: string, projectId: string, baseUrl: string): Promise<Share[]> {
      const project = await projects.get(userId, projectId);
      return (await shares.listForProject(project.userId, project.id)).map((row) => toShare(row, baseUrl));
    },

    async revoke(userId: string, projectId: string, shareId: string): Promise<void> {
      const project = await projects.get(userId, projectId);
      await foundOr404(shareId, MESSAGES.shareNotFound, () => shares.deleteOwned(project.userId, project.id, shareId));
    },

    /** The project a live token opens; 404 for an unknown, revoked or expired token alike. */
    async open(token: string): Promise<Project> {
      if (!TOKEN_PATTERN.test(token)) throw notFound(MESSAGES.shareNotFound);
      const found = await shares.findProjectByDigest(digestToken(token));
      if (!found || (found.expiresAt && found.expiresAt.getTime() <= Date.now())) throw notFound(MESSAGES.shareNotFound);
      return found.project;
    },
  };
}
