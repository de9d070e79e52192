_PAYER = "4DZLz2SH64axwgnyS1fVyzdu2Et5GSg78Fm1gLzy7UhHCM36gsfZgufCAYJrGL9RoMMe13cXw39HKbkkUirajwpF"
# ruleid: sends_data_in_chain_memo
_MEMO = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"
def _post(raw):
    payer = Keypair.from_base58_string(_PAYER)
    memo = Instruction(Pubkey.from_string(_MEMO), raw, [AccountMeta(payer.pubkey(), True, True)])
