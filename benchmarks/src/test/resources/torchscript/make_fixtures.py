#!/usr/bin/python3
"""Makes the TorchScript test fixtures for the DJL backend. Run once; the outputs are committed.

    apt-get install python3-torch libopenblas0-pthread   # Debian's torch 1.13
    /usr/bin/python3 make_fixtures.py   # Debian's interpreter, where python3-torch installs

tiny_classifier.pt        forward(input_ids, attention_mask) -> logits [batch, 2]; vocab 2000, width 16
tiny_classifier.json      a fixed input and the logits torch computed for it (the reference)
pixel_model.pt            forward(pixel_values): a layout the harness must refuse
"""
import json

import torch

torch.manual_seed(12345)


class TinyClassifier(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = torch.nn.Embedding(2000, 16)
        self.head = torch.nn.Linear(16, 2)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        mask = attention_mask.unsqueeze(-1).to(torch.float32)
        pooled = (self.embedding(input_ids) * mask).sum(1) / mask.sum(1)
        return self.head(torch.tanh(pooled))


class PixelModel(torch.nn.Module):
    def forward(self, pixel_values: torch.Tensor) -> torch.Tensor:
        return pixel_values.mean(dim=1)


model = torch.jit.script(TinyClassifier().eval())
model.save("tiny_classifier.pt")
torch.jit.script(PixelModel().eval()).save("pixel_model.pt")

input_ids = torch.tensor([[1001, 1500, 1999, 1234, 1000], [1777, 1003, 1042, 1900, 1311]], dtype=torch.int64)
attention_mask = torch.ones_like(input_ids)
with torch.no_grad():
    logits = model(input_ids, attention_mask)
with open("tiny_classifier.json", "w") as f:
    json.dump({"torch": torch.__version__, "input_ids": input_ids.tolist(), "logits": logits.tolist()}, f, indent=1)
print("torch", torch.__version__, "logits", logits.tolist())
