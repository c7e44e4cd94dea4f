import { LANDOWNER_TEXTS, NAV_GROUP_LABELS, NAV_LABELS, SCREEN_TEXTS } from '@parkpatrol/shared';
import {
  FilePlus2,
  LayoutDashboard,
  ListChecks,
  UserRound,
  Gauge,
  FileStack,
  Users,
  Building2,
  Mail,
  BarChart3,
  Landmark,
  Mailbox,
  MailWarning,
  Scale,
  BriefcaseBusiness,
  type LucideIcon,
} from 'lucide-react';
import { paths } from '../../config/paths.ts';

export type NavEntry = { label: string; href: string; icon: LucideIcon };

/** docs/product.md, The shell: main entries, then the admin's groups. */
export const MAIN_NAV: readonly NavEntry[] = [
  { label: NAV_LABELS.dashboard, href: paths.dashboard, icon: LayoutDashboard },
  { label: NAV_LABELS.newPcn, href: paths.newPcn, icon: FilePlus2 },
  { label: NAV_LABELS.myPcns, href: paths.pcns, icon: ListChecks },
  { label: NAV_LABELS.profile, href: paths.profile, icon: UserRound },
];

export type NavGroup = { id: string; label: string; entries: readonly NavEntry[] };

/**
 * The admin's entries in groups that fold under their headings, so that the whole navigation fits
 * a laptop's screen: the desk and its set-up, then the chase of a charge after its notice.
 */
export const ADMIN_NAV_GROUPS: readonly NavGroup[] = [
  {
    id: 'administration',
    label: SCREEN_TEXTS.administration,
    entries: [
      { label: NAV_LABELS.adminDashboard, href: paths.admin.dashboard, icon: Gauge },
      { label: NAV_LABELS.managePcns, href: paths.admin.pcns, icon: FileStack },
      { label: NAV_LABELS.manageUsers, href: paths.admin.users, icon: Users },
      { label: NAV_LABELS.manageCarParks, href: paths.admin.carParks, icon: Building2 },
      // After the four admin lists, the two admin screens of decision 0003 need a way in.
      { label: SCREEN_TEXTS.clientOnboarding, href: paths.admin.onboarding, icon: Mail },
      { label: SCREEN_TEXTS.analyticsDashboard, href: paths.admin.analytics, icon: BarChart3 },
      // The operator's terms every notice prints (decisions 0017, 0039).
      { label: SCREEN_TEXTS.operatorSettings, href: paths.admin.settings, icon: Landmark },
    ],
  },
  {
    id: 'after-the-notice',
    label: NAV_GROUP_LABELS.afterTheNotice,
    entries: [
      // The keeper stage (decisions 0016 to 0018).
      { label: SCREEN_TEXTS.keeperNotices, href: paths.admin.keeperNotices, icon: Mailbox },
      // The chase of an unpaid charge after its notice to keeper: reminders and letters before claim (decision 0039).
      { label: SCREEN_TEXTS.collectionLetters, href: paths.admin.collectionLetters, icon: MailWarning },
      // Charges past their letter before claim handed to a debt recovery agency, and its outcomes back (decision 0040).
      { label: SCREEN_TEXTS.debtRecovery, href: paths.admin.debtRecovery, icon: BriefcaseBusiness },
      // The motorists' appeals, answered with reasons by their respond-by dates (decision 0019).
      { label: SCREEN_TEXTS.appeals, href: paths.admin.appeals, icon: Scale },
    ],
  },
];

export const ADMIN_NAV: readonly NavEntry[] = ADMIN_NAV_GROUPS.flatMap((group) => group.entries);

/** A landowner's whole navigation (decision 0042): their car parks and their profile. */
export const LANDOWNER_NAV: readonly NavEntry[] = [
  { label: LANDOWNER_TEXTS.myCarParks, href: paths.landowner.home, icon: Building2 },
  { label: NAV_LABELS.profile, href: paths.profile, icon: UserRound },
];

function normalisePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/** The entry whose path is the current path: an exact match, else none and the top bar shows the product title. */
export function findCurrentEntry(pathname: string, isAdmin: boolean, isLandowner = false): NavEntry | undefined {
  const path = normalisePath(pathname);
  const entries = isLandowner ? LANDOWNER_NAV : [...MAIN_NAV, ...(isAdmin ? ADMIN_NAV : [])];
  return entries.find((entry) => entry.href === path);
}
