#!/usr/bin/env python3
"""Tianshou trains a DQN agent (player_1) against a random one (player_0) on the street soccer
AEC environment, as shipped: PettingZoo's environment in Tianshou's `PettingZooEnv`, masks in
the observation (`mask_in_observation=True`, where Tianshou reads them), stacked into its
replay buffer (one type per info key). Needs Tianshou and PyTorch (not in the test
requirements: PyTorch is over 500 MB), so it is run by hand:

    pip install "./clients/python[pettingzoo]" tianshou
    python3 docs/examples/tianshou_street_soccer.py --url http://127.0.0.1:8080

It prints the trainer's result: the steps collected and the gradient steps made.
"""
import argparse
import os

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

from playfield_client.pettingzoo import street_soccer_v0


def make_env():
    return PettingZooEnv(street_soccer_v0.env(turns_per_side=2, max_cycles=60,
                                              mask_in_observation=True))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--epoch-steps", type=int, default=300)
    args = parser.parse_args()
    os.environ["PLAYFIELD_URL"] = args.url
    np.random.seed(1)
    torch.manual_seed(1)
    env = make_env()
    shape = env.observation_space["observation"].shape
    actions = int(env.action_space.n)
    env.close()
    net = Net(state_shape=shape, action_shape=actions, hidden_sizes=[128, 128])
    learner = DQN(
        policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                       eps_training=0.2, eps_inference=0.05),
        optim=AdamOptimizerFactory(lr=1e-3), gamma=0.95, n_step_return_horizon=1,
        target_update_freq=100)
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    train_envs = DummyVectorEnv([make_env for _ in range(2)])
    test_envs = DummyVectorEnv([make_env])
    try:
        algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[opponent, learner], env=make_env())
        train = Collector[CollectStats](algorithm, train_envs, VectorReplayBuffer(5000, 2),
                                        exploration_noise=True)
        test = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
        train.reset()
        train.collect(n_step=128)
        result = algorithm.run_training(OffPolicyTrainerParams(
            training_collector=train, test_collector=test, max_epochs=args.epochs,
            epoch_num_steps=args.epoch_steps, collection_step_num_env_steps=20,
            test_step_num_episodes=1, batch_size=32,
            update_step_num_gradient_steps_per_sample=0.5, test_in_training=False, show_progress=False,
            multi_agent_return_reduction=lambda rewards: rewards[:, 1]))
        print(f"Tianshou DQN on street_soccer_v0: {result.train_step} steps collected, "
              f"{result.update_step} gradient steps, best test return {result.best_reward}")
    finally:
        train_envs.close()
        test_envs.close()


if __name__ == "__main__":
    main()
