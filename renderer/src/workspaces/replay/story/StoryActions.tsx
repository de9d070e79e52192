// The extra buttons of a story's actions bar (after the exports): Send to Assessment or ACH.
import type { Story } from '../../../../../engines/core/contracts/replay';
import type { ApiClient } from '../../../api/client';
import { SendToButton } from '../../../components/SendTo';
import { hostIndicator, indicatorsIn, mergeIndicators } from '../../../components/SendToModel';

export interface StoryActionsProps {
  readonly story: Story;
  readonly client: ApiClient;
  readonly base: string;
}

/** Takes the story's techniques and every indicator it holds (the attacker first, then the hosts with ports, names and hashes its alerts and timeline give) to an Assessment case or an ACH matrix. */
export function StoryActions({ story, client }: StoryActionsProps) {
  return (
    <SendToButton
      client={client}
      testId="story-send-to"
      finding={{
        title: `Replay story ${story.ordinal}: ${story.title}`,
        techniques: story.techniques.map((t) => t.id),
        indicators: mergeIndicators(story.attacker ? [hostIndicator(story.attacker)] : [], indicatorsIn(story)),
        source: { service: 'replay', kind: 'story', id: story.id, link: `#/replay/story/${story.id}` },
      }}
    />
  );
}
