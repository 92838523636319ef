/**
 * Step-up (issue 15): a money action answered 428, so the manager gives a fresh code; the action then
 * goes on by itself (SecondFactor sends it again). Cancelling leaves the action undone.
 */
import { useVerifyTotpMutation } from '../../services/totp';
import ProofDialog from './ProofDialog';

export default function StepUpDialog({ onClose }: { onClose: (verified: boolean) => void }) {
  const [verify] = useVerifyTotpMutation();
  return (
    <ProofDialog
      id="step-up"
      title="身份验证"
      text="该操作涉及资金或权限，请输入身份验证器中的6位验证码，验证后操作将继续执行。"
      submitText="验证并继续"
      send={(body) => verify({ body }).unwrap()}
      onDone={() => onClose(true)}
      onCancel={() => onClose(false)}
    />
  );
}
