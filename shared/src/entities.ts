import type { OffenceType } from './offence-types.ts';
import type { PcnStatus, PcnStatusCounts } from './pcn-status.ts';
import type { Role } from './roles.ts';
import type { Pagination } from './envelope.ts';

/** The API shapes (camelCase) of every entity. Never carries a hash or a token. */
export type User = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  isActive: boolean;
  hasPassword: boolean;
  createdAt: string;
  updatedAt: string;
  carParks?: CarParkSummary[];
};

export type CarParkSummary = { id: string; name: string };

export type CarPark = {
  id: string;
  name: string;
  siteCode: string;
  address: string;
  postcode: string;
  isActive: boolean;
  considerationMinutes: number;
  graceMinutes: number;
  createdAt: string;
  updatedAt: string;
  assignedUsers?: Array<Pick<User, 'id' | 'firstName' | 'lastName' | 'email' | 'role'>>;
};

export type PcnImage = {
  id: string;
  fileName: string;
  url: string;
  mimeType: string;
  size: number;
  sha256: string;
  takenAt: string | null;
  createdAt: string;
};

export type PcnStatusChange = {
  id: string;
  fromStatus: PcnStatus | null;
  toStatus: PcnStatus;
  note: string | null;
  changedBy: { id: string; firstName: string; lastName: string } | null;
  createdAt: string;
};

export type Pcn = {
  id: string;
  pcnNumber: string;
  vehicleRegistration: string;
  carParkId: string;
  carPark: CarParkSummary | null;
  offenceType: OffenceType;
  description: string;
  location: string;
  status: PcnStatus;
  adminNotes: string | null;
  observedAt: string | null;
  createdBy: { id: string; firstName: string; lastName: string } | null;
  images: PcnImage[];
  statusHistory?: PcnStatusChange[];
  createdAt: string;
  updatedAt: string;
};

export type AuthTokens = { token: string; refreshToken: string };
export type LoginResponse = AuthTokens & { user: User };
export type AccessLinkResponse = LoginResponse & { mustSetPassword: boolean };

export type PcnListResponse = { pcns: Pcn[]; pagination: Pagination };
/** GET /pcns/stats: counts per status in the caller's scope (own PCNs for a USER, all for admins). */
export type PcnStats = { counts: PcnStatusCounts; total: number };
export type UserListResponse = { users: User[]; pagination: Pagination };
export type CarParkListResponse = { carParks: CarPark[]; pagination: Pagination };

export type Activity = {
  id: string;
  activityType: string;
  description: string | null;
  createdAt: string;
  user: { id: string; firstName: string; lastName: string } | null;
};

export type AnalyticsSummary = {
  totalUsers: number;
  activeUsers: number;
  totalPCNs: number;
  totalActivities: number;
  recentActivities: Activity[];
  pcnsPerDay: Array<{ date: string; count: number }>;
  pcnsByStatus: Record<PcnStatus, number>;
};

export type UserWithStats = {
  user: Pick<User, 'id' | 'firstName' | 'lastName' | 'email' | 'role'>;
  stats: {
    totalLogins: number;
    totalPCNsSubmitted: number;
    totalPCNsViewed: number;
    totalTimeOnSite: number;
    lastActivityAt: string | null;
  };
};

export type OnboardingResult = { userId: string; success: boolean; error?: string };
export type BulkOnboardingResponse = { results: OnboardingResult[] };

export type HealthResponse = { status: 'ok' | 'degraded'; db: 'ok' | 'error' };
