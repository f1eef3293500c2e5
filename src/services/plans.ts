// What each plan allows: the one table that maps User.plan to limits.
import type { Plan } from '../repositories/projects.js';

export interface PlanLimits {
  /** Most projects an account may own; null means no cap. */
  maxProjects: number | null;
}

// MESSAGES.projectCap names the free plan's number: change both together.
export const PLAN_LIMITS: Readonly<Record<Plan, PlanLimits>> = {
  free: { maxProjects: 3 },
  pro: { maxProjects: null },
};

export const projectLimitFor = (plan: Plan): number | null => PLAN_LIMITS[plan].maxProjects;
