import type { ReactNode } from 'react';
import { Link, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useParams } from 'react-router-dom';
import { ERROR_MESSAGES, LANDOWNER_TEXTS } from '@parkpatrol/shared';
import { paths } from '../../config/paths.ts';
import { Alert } from '../../lib/alert.tsx';
import { Card } from '../../lib/card.tsx';
import { PageHeading } from '../../lib/page-heading.tsx';
import { Spinner } from '../../lib/spinner.tsx';
import { useAsync } from '../../lib/use-async.ts';
import { ChargesPanel } from './charges-panel.tsx';
import { getMyCarParks, LANDOWNER_FAILED } from './landowner-api.ts';
import { MonthlyReportView } from './monthly-report-view.tsx';
import './landowner.css';

/** A landowner's home (decision 0042): the car parks assigned to them, each opening its own screen. */
export function LandownerHomeScreen() {
  const carParks = useAsync(getMyCarParks, [], LANDOWNER_FAILED.carParks);
  return (
    <div className="page">
      <PageHeading>{LANDOWNER_TEXTS.myCarParks}</PageHeading>
      {carParks.error ? <Alert>{carParks.error.message}</Alert> : null}
      {!carParks.data && carParks.isLoading ? <Spinner /> : null}
      {carParks.data && carParks.data.length === 0 ? <p className="muted">{LANDOWNER_TEXTS.noCarParks}</p> : null}
      <ul className="landowner-car-parks" aria-label={LANDOWNER_TEXTS.myCarParks}>
        {(carParks.data ?? []).map((carPark) => (
          <li key={carPark.id}>
            <Card>
              <Link href={paths.landowner.carPark(carPark.id)} className="landowner-car-parks__link">
                {carPark.name}
              </Link>
              <p className="muted">
                {carPark.siteCode}
                {carPark.address ? ` · ${carPark.address}` : ''}
                {carPark.postcode ? `, ${carPark.postcode}` : ''}
              </p>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * One of a landowner's car parks: its charges, its permits and its monthly report, a tab each.
 * The permits panel is the permits feature's, composed in by the app (features do not import each other).
 */
export function LandownerCarParkScreen({ permits }: { permits: (carParkId: string) => ReactNode }) {
  const { id = '' } = useParams();
  const carParks = useAsync(getMyCarParks, [], LANDOWNER_FAILED.carParks);
  const carPark = carParks.data?.find((candidate) => candidate.id === id);
  if (carParks.error) return <Alert>{carParks.error.message}</Alert>;
  if (!carParks.data) return <Spinner />;
  if (!carPark) return <Alert>{ERROR_MESSAGES.fetchCarParks}</Alert>;
  return (
    <div className="page">
      <p>
        <Link href={paths.landowner.home}>‹ {LANDOWNER_TEXTS.myCarParks}</Link>
      </p>
      <PageHeading>{carPark.name}</PageHeading>
      <Tabs className="landowner-tabs">
        <TabList aria-label={carPark.name} className="landowner-tabs__list">
          <Tab id="charges" className="landowner-tabs__tab">
            {LANDOWNER_TEXTS.charges}
          </Tab>
          <Tab id="permits" className="landowner-tabs__tab">
            {LANDOWNER_TEXTS.permits}
          </Tab>
          <Tab id="report" className="landowner-tabs__tab">
            {LANDOWNER_TEXTS.report}
          </Tab>
        </TabList>
        <TabPanel id="charges">
          <ChargesPanel carParkId={carPark.id} />
        </TabPanel>
        <TabPanel id="permits">{permits(carPark.id)}</TabPanel>
        <TabPanel id="report">
          <MonthlyReportView carParkId={carPark.id} />
        </TabPanel>
      </Tabs>
    </div>
  );
}

/** The admins' view of a car park's monthly report, from Manage Car Parks. */
export function CarParkReportScreen() {
  const { id = '' } = useParams();
  return (
    <div className="page">
      <p>
        <Link href={paths.admin.carParks}>‹ Manage Car Parks</Link>
      </p>
      <PageHeading>{LANDOWNER_TEXTS.report}</PageHeading>
      <MonthlyReportView carParkId={id} />
    </div>
  );
}
