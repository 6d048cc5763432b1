import { Link } from 'react-router';
import { FaqList } from '@/components/content/faq-list';
import { ContentPage } from '@/components/layout/content-page';

/** /frequently-asked-questions: the 14 questions of spec §1, each opening its answer in place. */
export default function FaqPage() {
  return (
    <ContentPage
      title="Frequently asked questions"
      intro="Short answers about our service, what a loan can cost and how your information is used. Select a question to read its answer."
    >
      <FaqList />
      <p>
        Did not find your answer? <Link to="/contact-us">Contact us</Link> and we will help.
      </p>
    </ContentPage>
  );
}
